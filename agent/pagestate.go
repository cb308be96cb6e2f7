package agent

import (
	"context"
	"fmt"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/watchdog"
)

// pageStateBudget bounds one page fingerprint taken between actions; a
// page that does not answer within it is compared by its snapshot.
const pageStateBudget = 2 * time.Second

// pageState fingerprints the page before an action, when the browser can;
// "" when it cannot, and the iteration's snapshot stands for the page.
// Repetition is so judged per action: three clicks of one reply that each
// change the page are progress, while a page that goes back and forth
// between two states still repeats.
func (r *run) pageState(ctx context.Context) string {
	ps, ok := r.a.browser.(contract.PageStater)
	if !ok {
		return ""
	}
	s, err := watchdog.Run(ctx, "fingerprinting the page", pageStateBudget, ps.PageState)
	if err != nil {
		r.a.cfg.logger.Debug("page fingerprint", "error", err)
		return ""
	}
	return "state:" + s
}

// waitForTimeout says what a wait_for that ran out of time waited for.
func waitForTimeout(a contract.Action, budget time.Duration) string {
	what := fmt.Sprintf("the text %q", a.Text)
	if a.Text == "" {
		what = "element " + a.Ref
	} else if a.Ref != "" {
		what += " in element " + a.Ref
	}
	verb := "did not appear"
	switch a.State {
	case contract.WaitDisappear:
		verb = "did not disappear"
	case contract.WaitEnabled:
		verb = "did not become enabled"
	}
	msg := fmt.Sprintf("%s %s within %d ms", what, verb, budget.Milliseconds())
	if a.Text != "" && a.State != contract.WaitDisappear {
		msg += " (a text already shown when the wait began counts only when it shows once more)"
	}
	return msg
}
