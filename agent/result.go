package agent

import (
	"encoding/json"
	"time"

	"github.com/webagent/webagent/contract"
)

// Status is the coarse outcome of a task.
type Status string

// The two statuses.
const (
	StatusSuccess Status = "success"
	StatusFailure Status = "failure"
)

// Code says exactly why a task ended. Codes are stable: programs may match
// on them.
type Code string

// The codes a task can end with.
const (
	// CodeSuccess: the model called done with an answer.
	CodeSuccess Code = "SUCCESS"
	// CodeIterationTimeout: one iteration (snapshot, model call, actions)
	// ran past the iteration timeout, e.g. a stalled model stream or a
	// frozen page.
	CodeIterationTimeout Code = "ITERATION_TIMEOUT"
	// CodeTaskTimeout: the whole-task deadline (or the caller's context
	// deadline) passed.
	CodeTaskTimeout Code = "TASK_TIMEOUT"
	// CodeCanceled: the caller cancelled (SIGINT/SIGTERM in the CLI).
	CodeCanceled Code = "CANCELED"
	// CodeMaxIterations: the iteration limit was reached without done/fail.
	CodeMaxIterations Code = "MAX_ITERATIONS"
	// CodeLLMError: the model endpoint failed (after retries) or refused
	// the request (401/403/400).
	CodeLLMError Code = "LLM_ERROR"
	// CodeBrowserError: the browser failed or the start URL could not be
	// opened.
	CodeBrowserError Code = "BROWSER_ERROR"
	// CodeAgentFailed: the model gave up (called fail) or stopped calling
	// tools.
	CodeAgentFailed Code = "AGENT_FAILED"
	// CodeMaxErrors: too many failed tool calls in a row, or in all (the
	// error budget, WithErrorBudget).
	CodeMaxErrors Code = "MAX_ERRORS"
	// CodeAgentStuck: the model repeated the same action on a page that did
	// not change, after being warned.
	CodeAgentStuck Code = "AGENT_STUCK"
	// CodeBlocked: the page showed a check only a person may pass (a
	// CAPTCHA, a challenge page; Snapshot.HumanCheck names it) and no
	// person was there to pass it (WithHuman). The agent never tries to
	// solve one.
	CodeBlocked Code = "BLOCKED"
	// CodeCostLimit: the task's running cost passed its limit
	// (WithMaxCost). The model's reply that passed it is not acted on.
	CodeCostLimit Code = "COST_LIMIT"
)

// OperationTimeout is the error code of the tool result the model receives
// when a tool ran past its budget or the dispatch backstop. It is not a
// task code: the task goes on and the model may retry.
const OperationTimeout = "OPERATION_TIMEOUT"

// MaxReasoningBytes bounds Step.Reasoning: longer thinking keeps its
// start and end.
const MaxReasoningBytes = 4000

// Result is how a task ended. Run always returns one.
type Result struct {
	Status Status `json:"status"`
	Code   Code   `json:"code"`
	Answer string `json:"answer"`
	// Object is the answer as JSON when the task had an answer schema; in
	// the result's JSON it is "answer" itself, not a string.
	Object     json.RawMessage `json:"-"`
	Message    string          `json:"message"`
	Iterations int             `json:"iterations"`
	// StartedAt is when the task began (Run was called); DurationMS
	// counts from it.
	StartedAt  time.Time      `json:"started_at,omitzero"`
	DurationMS int64          `json:"duration_ms"`
	Steps      []Step         `json:"steps"`
	Usage      contract.Usage `json:"usage"`
	// Policy lists the actions a rule of the user's policy decided
	// (WithPolicy), allowed or not, in order.
	Policy []PolicyDecision `json:"policy,omitempty"`
	// DerivedPolicy is the policy drawn from the task
	// (WithPolicyDeriver), in the policy file's format.
	DerivedPolicy string `json:"derived_policy,omitempty"`
	// Replay says how much of the run came from a recording
	// (WithRecording); nil without one.
	Replay *ReplaySummary `json:"replay,omitempty"`
	// Err is the error behind a failure, for errors.Is/As; nil on success.
	Err error `json:"-"`
}

// Step records one iteration: what the model chose, what happened, and
// where the time went.
type Step struct {
	Iteration int `json:"iteration"`
	// StartMS is when the iteration began, in milliseconds after the task
	// began (Result.StartedAt): its bound falls the iteration timeout
	// after it.
	StartMS int64  `json:"start_ms"`
	URL     string `json:"url,omitempty"`
	// Thought is any text the model wrote besides its tool calls.
	Thought string `json:"thought,omitempty"`
	// Reasoning is the model's separate thinking text, if its provider
	// sends one, cut to MaxReasoningBytes.
	Reasoning string `json:"reasoning,omitempty"`
	// Replayed is set when the reply came from a recording of an earlier
	// run (WithRecording), not from the model.
	Replayed   bool           `json:"replayed,omitempty"`
	Actions    []ActionRecord `json:"actions"`
	SnapshotMS int64          `json:"snapshot_ms"`
	LLMMS      int64          `json:"llm_ms"`
	ActionMS   int64          `json:"action_ms"`
	Usage      contract.Usage `json:"usage"`
	// Delta is set when the step's observation listed what changed since
	// the previous one instead of the whole page.
	Delta bool `json:"delta,omitempty"`
	// Context says how the conversation was cut before this step, when
	// it grew past Limits.MaxContextTokens.
	Context string `json:"context,omitempty"`
	// Error is set when the iteration itself failed, e.g. it timed out
	// while waiting for the model.
	Error string `json:"error,omitempty"`
}

// ActionRecord is one tool call of a step and its outcome. Arguments hold
// secret placeholders, never secret values.
type ActionRecord struct {
	Tool    string          `json:"tool"`
	Args    json.RawMessage `json:"args,omitempty"`
	Outcome string          `json:"outcome"`
	Error   bool            `json:"error,omitempty"`
	// Skipped is set for a call not run because an earlier call of the
	// same reply failed or ended the task.
	Skipped bool  `json:"skipped,omitempty"`
	MS      int64 `json:"ms"`
	// Policy is set when a rule of the user's policy decided the call;
	// a call it refused did not run.
	Policy *PolicyDecision `json:"policy,omitempty"`
	// Element is, for a script's call, the element its ref named when
	// the script made it: what a replay looks for.
	Element *Element `json:"element,omitempty"`
	// Calls are a script call's page calls, in order, each a call of the
	// run (the snapshots it took among them); for a vendor's action
	// (Native), the webagent action it ran as, its Args a contract.Action
	// (its text masked) and its Element what was under the pointer.
	Calls []ActionRecord `json:"calls,omitempty"`
	// Native marks an action of a vendor's computer or browser tool
	// (WithNativeTools), named as the vendor names it.
	Native bool `json:"native,omitempty"`
}

// Element is an element as the snapshot names it.
type Element struct {
	Role string `json:"role"`
	Name string `json:"name"`
	// Ref is the ref it had in the snapshot of its step, when known.
	Ref string `json:"ref,omitempty"`
}

// MarshalJSON writes the result; with an answer schema, "answer" is the
// object.
func (r Result) MarshalJSON() ([]byte, error) {
	type plain Result
	if r.Object == nil {
		return json.Marshal(plain(r))
	}
	return json.Marshal(struct {
		plain
		Answer json.RawMessage `json:"answer"`
	}{plain(r), r.Object})
}

// UnmarshalJSON reads what MarshalJSON writes: an answer that is an object
// fills Object, and Answer with its JSON text.
func (r *Result) UnmarshalJSON(data []byte) error {
	type plain Result
	aux := struct {
		*plain
		Answer json.RawMessage `json:"answer"`
	}{plain: (*plain)(r)}
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	r.Answer, r.Object = "", nil
	switch {
	case len(aux.Answer) == 0 || string(aux.Answer) == "null":
	case aux.Answer[0] == '"':
		return json.Unmarshal(aux.Answer, &r.Answer)
	default:
		r.Object = aux.Answer
		r.Answer = string(aux.Answer)
	}
	return nil
}
