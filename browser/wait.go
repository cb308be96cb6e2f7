package browser

import (
	"fmt"
	"time"
)

// doWait waits ms milliseconds, or until ctx ends, and says whether the
// page changed or navigated meanwhile.
func (b *Browser) doWait(o *op, ms int) (string, error) {
	d := time.Duration(ms) * time.Millisecond // at most contract.MaxWait (Validate)
	watch := b.watchChanges(o)
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
		n, err := b.navigated(o)
		if err != nil {
			return "", err
		}
		return out + "; " + n, nil
	}
	return out + watch(), nil
}
