package agent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/watchdog"
)

// A failed iteration: whether the task goes on (a malformed reply, a timeout
// under the recover policy, after recovering the page) or ends, and with which
// code.

// recoverTimeout bounds one page recovery after a timeout.
const recoverTimeout = 30 * time.Second

// iterationFailed records a failed iteration and decides whether the task
// ends (and with which code) or goes on.
func (r *run) iterationFailed(ctx, taskCtx context.Context, prog *progress, err error) (Code, bool) {
	sa := prog.snapshot()
	step := sa.Step
	var te *watchdog.TimeoutError
	isTimeout := errors.As(err, &te)
	if isTimeout {
		r.phase = sa.phase()
		step.Error = fmt.Sprintf("timed out after %s while %s", te.Budget, sa.phase())
	} else {
		step.Error = r.sec.Mask(err.Error())
	}
	r.record(step)
	if ctx.Err() != nil || taskCtx.Err() != nil {
		return codeFor(err), true
	}
	switch {
	case errors.Is(err, contract.ErrMalformedReply):
		r.errors++
		r.consecutive++
		if code, over := r.overBudget(); over {
			return code, true
		}
		r.notes = append(r.notes, fmt.Sprintf("Your last reply could not be read (%s). Reply again, calling a tool.", r.sec.Mask(err.Error())))
		return "", false
	case isTimeout && r.a.cfg.lim.TimeoutPolicy == PolicyRecover:
		r.timeouts++
		if r.timeouts >= r.a.cfg.lim.MaxIterationTimeouts {
			return CodeIterationTimeout, true
		}
		note := fmt.Sprintf("Your last step timed out after %s while %s and was abandoned.", te.Budget, sa.phase())
		if what := r.recoverPage(taskCtx); what != "" {
			note += " " + what
		}
		r.notes = append(r.notes, note+" Look at the new observation and go on.")
		r.a.cfg.logger.Warn(step.Error+"; recovering", "iteration", step.Iteration, "timeouts", r.timeouts)
		return "", false
	}
	return codeFor(err), true
}

// recoverPage asks a Recoverer browser to bring the page back, within its
// own bound, and says what happened.
func (r *run) recoverPage(ctx context.Context) string {
	rec, ok := r.a.browser.(contract.Recoverer)
	if !ok {
		return ""
	}
	what, err := watchdog.Run(ctx, "recovering the page", recoverTimeout, rec.Recover)
	if err != nil {
		return "Recovering the page failed: " + r.sec.Mask(err.Error()) + "."
	}
	return r.sec.Mask(what)
}

// codeFor classifies an error that ended an iteration.
func codeFor(err error) Code {
	var be *browserError
	switch {
	case errors.Is(err, watchdog.ErrTimeout):
		return CodeIterationTimeout
	case errors.As(err, &be):
		return CodeBrowserError
	default:
		return CodeLLMError
	}
}

// browserError marks a browser failure that is not the model's to correct.
type browserError struct{ err error }

func (e *browserError) Error() string { return "browser: " + e.err.Error() }

func (e *browserError) Unwrap() error { return e.err }
