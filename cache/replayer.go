package cache

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/internal/outline"
)

// Replayer gives the replies of a stored run to the loop, in place of the
// model, for as long as the page fits them (it is an agent.Recording; see
// the package documentation). It is safe for concurrent use, though the
// loop calls it from one iteration at a time.
type Replayer struct {
	steps []recStep
	subst substitution
	from  *url.URL // the recorded start URL, whose origin moves to
	to    *url.URL // the start URL of this run

	mu sync.Mutex
	// next is the recorded step to replay next; wide is set after the
	// model answered, when the step after next may fit instead (the model
	// did next in another way).
	next    int
	wide    bool
	planned int    // the step given at the last turn, -1 when the model answered
	pending int    // the step the model was asked to do in its own way, -1 when none
	lastObs string // the observation of the last turn
}

// recStep is one recorded iteration.
type recStep struct {
	n       int // 1-based, in the recording
	lines   []outline.Line
	page    string // the page's text without refs (samePage)
	content string
	calls   []contract.ToolCall
	failed  []bool // per call: it failed or was not run when recorded
	usage   contract.Usage
	// inner is, per call, a script call's page calls: the element each
	// aimed at (agent.Planned.Inner).
	inner [][]*contract.Target
}

// NewReplayer returns a Replayer of e for a run that starts at startURL
// with vars: recorded URLs on the recorded start URL's origin move to
// startURL's, and what the recorded run typed with the recorded values of
// the variables is typed with these.
func NewReplayer(e *Entry, startURL string, vars map[string]string) *Replayer {
	r := &Replayer{subst: newSubstitution(e.Vars, vars), planned: -1, pending: -1}
	from, err1 := url.Parse(e.Trace.Header.URL)
	to, err2 := url.Parse(startURL)
	if err1 == nil && err2 == nil && from.Host != "" && to.Host != "" {
		r.from, r.to = from, to
	}
	for _, st := range e.Trace.Steps {
		m := e.Trace.Model(st.Iteration)
		if m == nil || m.Error != "" || st.Step.Error != "" || len(m.Reply.ToolCalls) == 0 {
			continue // an iteration that failed or called no tool: nothing to replay
		}
		rs := recStep{n: len(r.steps) + 1, lines: outline.Parse(m.Whole()), page: r.subst.apply(pageText(m.Whole())),
			content: m.Reply.Content, calls: m.Reply.ToolCalls, usage: m.Reply.Usage}
		for i := range rs.calls {
			failed := i >= len(st.Step.Actions) || st.Step.Actions[i].Error || st.Step.Actions[i].Skipped
			rs.failed = append(rs.failed, failed)
			rs.inner = append(rs.inner, r.scriptCalls(st.Step.Actions, i))
		}
		r.steps = append(r.steps, rs)
	}
	return r
}

// Steps is how many recorded steps the Replayer holds.
func (r *Replayer) Steps() int { return len(r.steps) }

// Next gives the recorded step that fits the page now (agent.Recording).
func (r *Replayer) Next(_ context.Context, t agent.Turn) (agent.Planned, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer func() { r.lastObs = t.Observation }()
	if d := r.learn(t.Last); d != nil {
		return agent.Planned{}, d
	}
	now := outline.Parse(t.Observation)
	page := pageText(t.Observation)
	cands := []int{r.next}
	if r.wide {
		cands = append(cands, r.next+1)
	}
	var first *agent.Divergence
	for _, k := range cands {
		if k >= len(r.steps) {
			break
		}
		pl, d := r.fit(k, now, page)
		if d == nil {
			r.planned, r.next, r.wide, r.pending = k, k+1, false, -1
			return pl, nil
		}
		if first == nil {
			first = d
			r.pending = k
		}
	}
	r.planned = -1
	if first == nil {
		return agent.Planned{}, &agent.Divergence{Why: "the recording has no step left"}
	}
	return agent.Planned{}, first
}

// learn reads how the last turn went: a replayed step whose call failed now
// (it did not when recorded) makes the model answer; a step the model did
// moves the recording on.
func (r *Replayer) learn(last *agent.Step) *agent.Divergence {
	if last == nil {
		return nil
	}
	if last.Replayed && r.planned >= 0 {
		st := r.steps[r.planned]
		for i, a := range last.Actions {
			if (a.Error || a.Skipped) && i < len(st.failed) && !st.failed[i] {
				r.next, r.wide, r.pending, r.planned = st.n-1, true, st.n-1, -1
				return &agent.Divergence{Step: st.n, Recorded: r.describe(st),
					Why: "it did not work as recorded: " + strings.TrimPrefix(a.Outcome, "error: ")}
			}
		}
		return nil
	}
	if r.pending >= 0 {
		if r.didStep(r.steps[r.pending], last) {
			r.next = r.pending + 1
		} else {
			r.next = r.pending
		}
		r.wide = true
		r.pending = -1
	}
	return nil
}

// didStep reports whether the model's step did what recorded step st did:
// each of its calls made by the model too, on the same element.
func (r *Replayer) didStep(st recStep, last *agent.Step) bool {
	before := outline.Parse(r.lastObs)
	for _, tc := range st.calls {
		if tc.Name == agent.ToolDone {
			continue
		}
		want := r.callKey(tc.Name, tc.Arguments, st.lines)
		found := false
		for _, a := range last.Actions {
			if !a.Error && !a.Skipped && r.callKey(a.Tool, string(a.Args), before) == want {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// callKey names a call by its tool, the element of its ref (role and
// name) and its other arguments.
func (r *Replayer) callKey(tool, args string, lines []outline.Line) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return tool + " " + args
	}
	if ref, _ := m["ref"].(string); ref != "" {
		m["ref"] = r.subst.apply(outline.ElementOf(lines, ref))
	}
	if txt, _ := m["text"].(string); txt != "" {
		m["text"] = r.subst.apply(txt)
	}
	b, _ := json.Marshal(m)
	return tool + " " + string(b)
}

// fit returns recorded step k as a reply for the page now, or why it does
// not fit.
func (r *Replayer) fit(k int, now []outline.Line, page string) (agent.Planned, *agent.Divergence) {
	st := r.steps[k]
	diverge := func(why string) (agent.Planned, *agent.Divergence) {
		return agent.Planned{}, &agent.Divergence{Step: st.n, Recorded: r.describe(st), Why: why}
	}
	pl := agent.Planned{Reply: contract.Reply{Content: st.content, Usage: st.usage}}
	for i, tc := range st.calls {
		if tc.Toolset != "" || len(tc.Native) > 0 {
			// Its actions are at points of a screen, or refs the tool
			// read, that this run has not seen: the model answers.
			return diverge(fmt.Sprintf("it is a call of the vendor's %s tool, which is not replayed", cmpOr(tc.Toolset, tc.Name)))
		}
		var args map[string]any
		if err := json.Unmarshal([]byte(tc.Arguments), &args); err != nil || args == nil {
			return diverge("its arguments were not a JSON object")
		}
		expect, why := r.retarget(tc.Name, args, st, now, page)
		if why != "" {
			return diverge(why)
		}
		b, err := json.Marshal(args)
		if err != nil {
			return diverge(err.Error())
		}
		pl.Reply.ToolCalls = append(pl.Reply.ToolCalls, contract.ToolCall{
			ID: fmt.Sprintf("cached_%d_%d", st.n, i+1), Name: tc.Name, Arguments: string(b), Extra: tc.Extra})
		pl.Expect = append(pl.Expect, expect)
		pl.Inner = append(pl.Inner, st.inner[i])
	}
	return pl, nil
}

// retarget rewrites one recorded call's arguments for the page now: the
// refs of the same elements, the URLs moved to this run's origin, the
// variables' values. It returns the element the call must aim at, or why
// the call cannot be replayed.
func (r *Replayer) retarget(tool string, args map[string]any, st recStep, now []outline.Line, page string) (*contract.Target, string) {
	samePage := st.page == page
	switch tool {
	case agent.ToolDone:
		if !samePage {
			return nil, "its answer was read from a page that is not the same now"
		}
		return nil, ""
	case agent.ToolFail:
		return nil, "the recorded run gave up there"
	case agent.ToolAskHuman:
		return nil, "it asked a person, whose answer is not replayed"
	case contract.ActTabs:
		if op, _ := args["op"].(string); op != contract.TabsList {
			return nil, "tabs are named by ids that change from run to run"
		}
	case contract.ActReadRegion:
		if !samePage {
			return nil, "it read a region of a page that is not the same now"
		}
		return nil, ""
	}
	if _, hasX := args["x"]; hasX && !samePage {
		return nil, "it aimed at a point of a page that is not the same now"
	}
	if s, ok := args["text"].(string); ok && tool == contract.ActType {
		args["text"] = r.subst.apply(s)
	}
	if s, ok := args["url"].(string); ok {
		args["url"] = r.rebase(r.subst.apply(s))
	}
	if s, ok := args["code"].(string); ok && tool == agent.ToolScript {
		args["code"] = r.rebaseAll(r.subst.apply(s))
	}
	var expect *contract.Target
	for _, key := range []string{"ref", "to_ref"} {
		ref, _ := args[key].(string)
		if ref == "" {
			continue
		}
		rec, err := outline.Recall(st.lines, ref)
		if err != nil {
			return nil, err.Error()
		}
		rec.Line.Name = r.subst.apply(rec.Line.Name)
		got, err := rec.Find(now, st.lines)
		if err != nil {
			return nil, err.Error()
		}
		args[key] = got
		if key == "ref" {
			expect = &contract.Target{Role: rec.Line.Role, Name: rec.Line.Name}
		}
	}
	return expect, ""
}

// rebase moves a URL on the recorded start URL's origin to this run's.
func (r *Replayer) rebase(raw string) string {
	if r.from == nil || raw == "" {
		return raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != r.from.Scheme || u.Host != r.from.Host {
		return raw
	}
	u.Scheme, u.Host = r.to.Scheme, r.to.Host
	return u.String()
}

// describe names a recorded step's calls for people.
func (r *Replayer) describe(st recStep) string {
	var parts []string
	for _, tc := range st.calls {
		var args map[string]any
		_ = json.Unmarshal([]byte(tc.Arguments), &args)
		s := tc.Name
		if ref, _ := args["ref"].(string); ref != "" {
			s += " " + r.subst.apply(outline.ElementOf(st.lines, ref))
		}
		if u, _ := args["url"].(string); u != "" {
			s += " " + r.rebase(u)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// pageText is the page an observation shows, without its refs, the step
// counter, the notices and the fence, for comparing pages.
func pageText(obs string) string {
	_, snap, ok := strings.Cut(obs, "Snapshot:\n")
	if !ok {
		return ""
	}
	var b strings.Builder
	for line := range strings.Lines(snap) {
		if strings.HasPrefix(line, "<<<end page-content ") {
			continue
		}
		b.WriteString(line)
	}
	return strings.TrimSpace(outline.WithoutRefs(b.String()))
}

var _ agent.Recording = (*Replayer)(nil)

// scriptCalls is, for call i of a recorded step when it is a script, the
// element each of its page calls aimed at (snapshots are not calls).
func (r *Replayer) scriptCalls(acts []agent.ActionRecord, i int) []*contract.Target {
	if i >= len(acts) || acts[i].Tool != agent.ToolScript {
		return nil
	}
	out := []*contract.Target{}
	for _, c := range acts[i].Calls {
		if c.Tool == "snapshot" {
			continue
		}
		var t *contract.Target
		if c.Element != nil {
			t = &contract.Target{Role: c.Element.Role, Name: r.subst.apply(c.Element.Name)}
		}
		out = append(out, t)
	}
	return out
}

// rebaseAll moves every URL of a program on the recorded start URL's
// origin to this run's.
func (r *Replayer) rebaseAll(code string) string {
	if r.from == nil {
		return code
	}
	from := r.from.Scheme + "://" + r.from.Host
	return strings.ReplaceAll(code, from, r.to.Scheme+"://"+r.to.Host)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
