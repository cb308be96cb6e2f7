package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/watchdog"
)

// outcome is the result of one tool call as the model will see it.
type outcome struct {
	images    [][]byte               // a native call's screenshot, returned with its result
	acked     []contract.SafetyCheck // a native call's safety checks a person allowed
	browser   *contract.BrowserState // a browser tool's tabs after the call
	text      string
	failed    bool
	terminal  bool
	stale     bool // the call named an element that is gone
	navigated bool // the page navigated: the reply's other calls are not run
	json      bool // a JSON result: kept valid, the fence's boundary removed only
	policy    *PolicyDecision
	calls     []ActionRecord // a script's calls
}

// execute runs one tool call; expect, when set, is the element a replayed
// call must aim at (WithRecording). Its error is only for failures that
// end the iteration (the iteration's context ended, the browser broke).
func (r *run) execute(ctx context.Context, tc contract.ToolCall, out *iterOut, expect *contract.Target) (outcome, error) {
	if tc.Toolset != "" {
		return r.executeNative(ctx, tc, out) // a vendor's own tool (native.go)
	}
	c, err := r.tools.parse(tc)
	if err != nil {
		return outcome{text: "error: " + err.Error(), failed: true}, nil
	}
	c.id = tc.ID
	return r.executeCall(ctx, tc, c, out, expect)
}

// executeCall runs a parsed call: the recording's check, the policy, the
// dispatch.
func (r *run) executeCall(ctx context.Context, tc contract.ToolCall, c call, out *iterOut, expect *contract.Target) (outcome, error) {
	if c.tool.end != nil {
		return outcome{text: c.tool.end(c, out), terminal: true}, nil
	}
	// An iteration abandoned by its watchdog must not act any more.
	if err := ctx.Err(); err != nil {
		return outcome{}, err
	}
	if expect != nil {
		if o, err := r.checkExpect(ctx, c, expect); o != nil || err != nil {
			if o == nil {
				return outcome{}, err
			}
			return *o, nil
		}
	}
	if c.tool.do != nil || r.policy == nil {
		return r.perform(ctx, tc, c, out)
	}
	pd, refused, err := r.checkPolicy(ctx, c, out)
	switch {
	case err != nil:
		return outcome{}, err
	case refused != nil:
		refused.policy = pd
		return *refused, nil
	}
	o, err := r.perform(ctx, tc, c, out)
	o.policy = pd
	return o, err
}

// perform dispatches a parsed call and turns what happened into the
// model's result.
func (r *run) perform(ctx context.Context, tc contract.ToolCall, c call, out *iterOut) (outcome, error) {
	res, err := r.dispatch(ctx, c, out)
	var te *watchdog.TimeoutError
	var ae *contract.ActionError
	if over, ok := taskOver(err); ok && ctx.Err() == nil {
		out.over = over
		return outcome{text: over.Outcome, terminal: true}, nil
	}
	switch {
	case err == nil:
		return outcome{text: res.Text, navigated: res.Navigated}, nil
	case ctx.Err() != nil:
		return outcome{}, err
	case errors.As(err, &te) && c.tool.late != nil && te.Budget == c.budget:
		return c.tool.late(c), nil
	case errors.As(err, &te):
		return outcome{text: r.operationTimeout(ctx, tc.Name, te.Budget), failed: true, json: true}, nil
	case errors.As(err, &ae):
		return outcome{text: "error: " + ae.Msg, failed: true, stale: errors.Is(err, contract.ErrStaleRef)}, nil
	default:
		return outcome{}, &browserError{fmt.Errorf("%s: %w", tc.Name, err)}
	}
}

// dispatch is the one place every tool runs: under its own budget, and
// under the backstop above all budgets. Work that ignores its context is
// abandoned when either fires; its context is cancelled and its late result
// dropped.
func (r *run) dispatch(ctx context.Context, c call, out *iterOut) (contract.Outcome, error) {
	do := c.tool.do
	if do == nil {
		do = browserAction
	}
	name := c.tool.name
	return watchdog.Run(ctx, "dispatching "+name, r.a.cfg.lim.OperationTimeout, func(ctx context.Context) (contract.Outcome, error) {
		return watchdog.Run(ctx, name, c.budget, func(ctx context.Context) (contract.Outcome, error) { return do(ctx, r, c, out) })
	})
}

// operationTimeout is the retryable tool result for an abandoned operation.
// The page is recovered first when the browser can.
func (r *run) operationTimeout(ctx context.Context, tool string, budget time.Duration) string {
	msg := fmt.Sprintf("%s did not finish within %d ms and was abandoned; nothing it does later reaches the page. You may retry it.",
		tool, budget.Milliseconds())
	if what := r.recoverPage(ctx); what != "" {
		msg += " " + what
	}
	b, _ := json.Marshal(map[string]any{
		"error": OperationTimeout, "tool": tool, "budget_ms": budget.Milliseconds(), "retryable": true, "message": msg,
	})
	return string(b)
}
