package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/webagent/webagent/contract"
)

// One iteration (run.iterate): what it produces (iterOut), and where it is
// (progress), which the message of a timed-out iteration names.

// iterOut is what one iteration produced; the loop applies it only if the
// iteration finished within its bound.
type iterOut struct {
	obs         contract.Message
	page        string   // fingerprint of the page the actions were taken on
	pages       []string // per tool call, the page state it was taken on ("": page)
	assistant   contract.Message
	results     []contract.Message // one per tool call, aligned with step.Actions
	images      [][]byte           // screenshots taken, shown to the model next
	step        Step
	done        *string
	fail        *string
	over        *TaskOver           // the environment ended the task
	seen        string              // the snapshot's text, for wait_for
	url         string              // the snapshot's URL
	tools       []contract.PageTool // the page tools the snapshot lists
	check       string              // the human check the page shows (Snapshot.HumanCheck)
	checkBlocks bool                // it stands in front of the page (Snapshot.HumanCheckBlocks)
	blocked     string              // why the task ends blocked by a human check
	signInPage  string              // the host of a saved sign-in that shows a sign-in page
	overCost    string              // why the task ends over its cost limit
	noTool      bool
	rec         replayed           // what came from the recording (WithRecording)
	script      *scriptLog         // the calls of the script call running now
	view        view               // the page as this observation leaves it in the model's mind
	whole       string             // the whole observation a delta stands for (ModelCall.Page); "" when obs is whole
	wantFull    bool               // the model called snapshot: the next observation is whole
	prompt      string             // the request as the prefix is measured (promptText)
	history     []contract.Message // the messages before this iteration's, cut (cutPages); nil when not cut
}

// iterIn is what an iteration reads of the run, copied: an abandoned
// iteration may still run while the loop goes on.
type iterIn struct {
	checkSeen  bool           // the last snapshot showed a human check standing in front of the page
	signInLost bool           // a saved sign-in was already found not to work (signinlost.go)
	spent      contract.Usage // the usage of the replies before this iteration (WithMaxCost)
	rec        recordingIn
	view       view   // what the model read of the page so far
	wantFull   bool   // the next observation must be whole
	prompt     string // the previous request (promptText), for its common prefix
	person     bool   // a person may yet take over to pass a human check (WithControl)
}

// decide asks for the iteration's reply: the recording's when it fits the
// page, else the model's.
func (r *run) decide(ctx context.Context, iter int, msgs []contract.Message, in iterIn, out *iterOut) (contract.Reply, error) {
	t0 := time.Now()
	obs := out.obs.Content
	if reply, ok := r.plan(ctx, iter, obs, in.rec, out); ok {
		out.step.Replayed = true
		req := contract.Request{Messages: append(msgs, out.obs), Tools: r.tools.defs, Native: r.tools.native}
		recorded := reply
		recorded.Usage = out.rec.saved // what the recorded call had cost
		r.traceReplayed(iter, obs, req, recorded, t0)
		return reply, nil
	}
	if out.rec.note != nil {
		msgs = append(msgs, *out.rec.note)
	}
	req := contract.Request{Messages: append(msgs, out.obs), Tools: r.tools.defs, Native: r.tools.native, CacheKey: r.cacheKey}
	out.prompt = promptText(req.Messages)
	mctx, span := r.startModel(ctx, iter)
	reply, err := r.a.model.Complete(mctx, req)
	reply.Usage.PrefixTokens = prefixTokens(in.prompt, out.prompt)
	r.endModel(span, obs, reply, err)
	r.traceModel(iter, obs, out.whole, req, reply, err, t0)
	if err != nil {
		return contract.Reply{}, fmt.Errorf("model: %w", err)
	}
	return reply, nil
}

// progress lets the loop report where a timed-out iteration was stuck.
type progress struct {
	mu   sync.Mutex
	step Step
	at   string
}

func (p *progress) set(f func(s *Step), phase string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if f != nil {
		f(&p.step)
	}
	p.at = phase
}

func (p *progress) snapshot() stepAt {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.step
	s.Actions = append([]ActionRecord(nil), s.Actions...)
	return stepAt{Step: s, at: p.at}
}

type stepAt struct {
	Step
	at string
}

func (s stepAt) phase() string {
	if s.at == "" {
		return "starting"
	}
	return s.at
}

func ms(d time.Duration) int64 { return d.Milliseconds() }

// look takes the iteration's snapshot and renders its observation into
// out.
func (r *run) look(ctx context.Context, iter int, in iterIn, out *iterOut, p *progress) (contract.Snapshot, error) {
	p.set(nil, "taking a snapshot of the page")
	t0 := time.Now()
	snap, err := r.a.browser.Snapshot(ctx)
	if err != nil {
		return snap, &browserError{fmt.Errorf("snapshot: %w", err)}
	}
	obs, v, delta := r.observe(snap, iter, in.view, in.wantFull)
	out.view = v
	if delta {
		out.whole = observation(snap, r.sec, r.fence, iter, r.a.cfg.lim.MaxIterations)
	}
	r.traceSnapshot(ctx, iter)
	out.signInPage, obs = r.noteSignIn(snap, obs, in.signInLost)
	out.obs = r.observationMessage(ctx, obs)
	out.page = fingerprint(snap)
	out.seen, out.url, out.check, out.checkBlocks = snap.Text, snap.URL, snap.HumanCheck, snap.HumanCheckBlocks
	out.tools = snap.PageTools
	p.set(func(s *Step) {
		s.URL, s.Delta = r.sec.Mask(snap.URL), delta
		s.SnapshotMS = ms(time.Since(t0))
	}, "waiting for the model")
	return snap, nil
}

// iterate runs one observe-decide-act iteration. It must not touch r's
// mutable state: it works on its own copy of the messages and returns what
// to append.
func (r *run) iterate(ctx context.Context, iter int, msgs []contract.Message, in iterIn, p *progress) (*iterOut, error) {
	out := &iterOut{}
	snap, err := r.look(ctx, iter, in, out, p)
	if err != nil {
		return nil, err
	}
	if in.view.left(snap) {
		msgs = r.leftPage(msgs, out, p)
	}
	if msg := r.blockedBy(snap, in.checkSeen && !in.person); msg != "" {
		out.blocked = msg
		out.step = p.snapshot().Step
		return out, nil
	}

	t1 := time.Now()
	reply, err := r.decide(ctx, iter, msgs, in, out)
	if err != nil {
		return nil, err
	}
	out.assistant = contract.Message{Role: contract.RoleAssistant, Content: reply.Content, ToolCalls: reply.ToolCalls}
	p.set(func(s *Step) {
		s.Replayed = out.step.Replayed
		s.LLMMS = ms(time.Since(t1))
		s.Usage = reply.Usage
		s.Thought = r.sec.Mask(strings.TrimSpace(reply.Content))
		s.Reasoning = boundReasoning(r.sec.Mask(strings.TrimSpace(reply.Reasoning)))
	}, "acting")
	if reply.Reasoning != "" {
		r.a.cfg.logger.Debug("model reasoning", "iteration", iter, "bytes", len(reply.Reasoning),
			"reasoning", boundReasoning(r.sec.Mask(reply.Reasoning)))
	}
	if r.stopForCost(out, in.spent.Add(reply.Usage), reply.ToolCalls, p) {
		return out, nil
	}
	if len(reply.ToolCalls) == 0 {
		out.noTool = true
		out.step = p.snapshot().Step
		return out, nil
	}

	t2 := time.Now()
	stop := ""
	done := 0 // calls of this reply that ran
	for _, tc := range reply.ToolCalls {
		rec := ActionRecord{Tool: tc.Name, Args: safeArgs(tc.Arguments, r.sec)}
		ta := time.Now()
		structured, shown := false, outcome{} // shown: a native call's picture, checks and tabs
		state := ""
		if stop == "" && r.a.cfg.control != nil && r.a.cfg.control.Wanted() {
			stop = stoppedForPerson
		}
		if stop == "" && r.tools.acts(tc.Name) {
			state = r.pageState(ctx)
		}
		out.pages = append(out.pages, state)
		if stop != "" {
			rec.Outcome, rec.Skipped = stop, true
		} else {
			res, err := r.executeTraced(ctx, tc, out)
			if err != nil {
				return nil, err
			}
			rec.Outcome, rec.Error, structured = r.sec.Mask(res.text), res.failed, res.json
			rec.Policy, rec.Calls, shown = res.policy, res.calls, res
			switch {
			case res.stale && done > 0:
				// The page changed under a later call of the batch: not
				// the model's error.
				rec.Outcome, rec.Error, rec.Skipped = "not run: "+strings.TrimPrefix(rec.Outcome, "error: "), false, true
				stop = "not run: the page changed; look at the new snapshot"
			case res.failed:
				stop = "not run: an earlier call in this reply failed"
			case res.terminal:
				stop = "not run: the task already ended"
			case res.navigated:
				stop = "not run: the page navigated; look at the new snapshot first"
			}
			done++
		}
		rec.MS = ms(time.Since(ta))
		content := rec.Outcome
		switch {
		case rec.Skipped || !r.tools.fenced(tc.Name):
		case structured:
			content = r.fence.escape(content)
		default:
			content = r.fence.wrap(content) // it may quote the page
		}
		out.results = append(out.results, contract.Message{Role: contract.RoleTool, ToolCallID: tc.ID, Content: content, Failed: rec.Error,
			Images: shown.images, Acknowledged: shown.acked, Browser: shown.browser})
		p.set(func(s *Step) { s.Actions = append(s.Actions, rec) }, "acting")
	}
	p.set(func(s *Step) { s.ActionMS = ms(time.Since(t2)) }, "acting")
	out.step = p.snapshot().Step
	return out, nil
}

// stopForCost ends the iteration when the running cost, usage, passes
// the limit: the reply's calls are recorded as not run.
func (r *run) stopForCost(out *iterOut, usage contract.Usage, calls []contract.ToolCall, p *progress) bool {
	why := r.overCost(usage)
	if why == "" {
		return false
	}
	out.overCost = why
	p.set(func(s *Step) {
		for _, tc := range calls {
			s.Actions = append(s.Actions, ActionRecord{Tool: tc.Name, Args: safeArgs(tc.Arguments, r.sec), Outcome: "not run: the task's cost passed its limit", Skipped: true})
		}
	}, "acting")
	out.step = p.snapshot().Step
	return true
}

// overCost says why the task must end when the cost of usage passes the
// limit of WithMaxCost; "" when it does not, or there is none.
func (r *run) overCost(usage contract.Usage) string {
	c := r.a.cfg
	if c.maxCost <= 0 || c.cost == nil {
		return ""
	}
	if spent := c.cost(usage); spent > c.maxCost {
		return fmt.Sprintf("the task's cost, %s, passed its limit of %s (%d prompt and %d completion tokens)",
			money(spent), money(c.maxCost), usage.PromptTokens, usage.CompletionTokens)
	}
	return ""
}

// money writes an amount with enough digits for a fraction of a cent.
func money(v float64) string {
	if v >= 1 {
		return fmt.Sprintf("$%.2f", v)
	}
	return fmt.Sprintf("$%.4f", v)
}
