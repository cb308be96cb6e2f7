package browser

import (
	"fmt"
	"time"

	"github.com/webagent/webagent/contract"
)

// doWait waits ms milliseconds, or until ctx ends, and says whether the
// page changed or navigated meanwhile.
func (o *op) doWait(a contract.Action) (string, error) {
	ms := a.MS
	b := o.b
	d := time.Duration(ms) * time.Millisecond // at most contract.MaxWait (Validate)
	watch := o.watchChanges()
	s0 := b.nav.state()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-o.ctx.Done():
		watch()
		return "", o.ctx.Err()
	}
	out := fmt.Sprintf("waited %d ms", ms)
	if b.nav.state().moved(s0) {
		if err := b.nav.settle(o.ctx); err != nil {
			o.stopLoading = true
			return "", err
		}
		n, err := o.navigated()
		if err != nil {
			return "", err
		}
		return out + "; " + n, nil
	}
	return out + watch(), nil
}
