package suite

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/webagent/webagent/internal/outline"
	"github.com/webagent/webagent/modelserver"
)

// ReferencePolicy returns a scripted model for a [modelserver.Server] that plays
// the task's reference solution. siteBase is the root URL the task's site
// is served at (relative goto steps are resolved against it; for a task
// with a url and no site it may be "", and the task's URL is used).
//
// The policy keeps no state between requests: each reply it sends starts
// with a marker, "Reference turn N of M", and it finds its place again from
// the markers in the conversation. Element names are resolved to refs in the
// latest observation's snapshot. It answers with a fail call, saying which
// turn and line went wrong, when a name cannot be resolved, an expect does
// not hold, an until text never appears, or a tool call of its previous
// reply came back with an "error:" result.
func ReferencePolicy(t *Task, siteBase string) modelserver.Responder {
	base := siteBase
	if base == "" {
		base = t.URL
	}
	return &policy{task: t, base: base}
}

type policy struct {
	task *Task
	base string
}

const markerPrefix = "Reference turn "

var markerRe = regexp.MustCompile(`^Reference turn ([0-9]+) of [0-9]+(?:, to step ([0-9]+))?`)

// Respond decides the next reply from the conversation so far.
func (p *policy) Respond(req *modelserver.ChatRequest) modelserver.Turn {
	if p.task.Reference == nil || len(p.task.Reference.Turns) == 0 {
		return failTurn(fmt.Sprintf("task %s has no reference solution", p.task.ID))
	}
	turns := p.task.Reference.Turns
	obs, spots, delta, ok, err := currentPage(req)
	if err != nil {
		return failTurn("reference policy: " + err.Error())
	}
	if !ok {
		return failTurn("reference policy: the request holds no page observation")
	}
	pr := progress(req)
	last := pr.last
	next, from, failed := p.resume(req, pr, obs)
	if failed != "" {
		return failTurn(failed)
	}
	lines := outline.Parse(snapshotOf(obs))
	for ; next <= len(turns); next, from = next+1, 0 {
		tr := turns[next-1]
		if next != last && tr.Until != "" && strings.Contains(obs, tr.Until) {
			continue // already there: repeat zero times
		}
		calls, steps, err := p.calls(tr, from, obs, lines)
		if err != nil && delta && contains(req.ToolNames(), snapshotTool) {
			// The page as the deltas left it may be out of order or
			// missing what was cut: ask for the whole page, as a model would.
			return modelserver.Turn{Text: "Reference: the whole page first (" + err.Error() + ")",
				ToolCalls: []modelserver.Call{{Name: snapshotTool, Args: `{"full":true}`}}}
		}
		if err != nil {
			return failTurn(p.where(next, tr) + ": " + err.Error())
		}
		if len(calls) == 0 {
			continue // only expects, and they hold
		}
		if offered := req.ToolNames(); len(offered) > 0 {
			for _, c := range calls {
				if !contains(offered, c.Name) {
					return failTurn(fmt.Sprintf("%s: the agent offers no %s tool (it offers %s)", p.where(next, tr), c.Name, strings.Join(offered, ", ")))
				}
			}
		}
		marker := fmt.Sprintf("%s%d of %d", markerPrefix, next, len(turns))
		if spots != nil { // the model answers in coordinates: only what is on the screen
			return p.onScreen(tr, next, marker, calls, steps, lines, spots, pr)
		}
		return modelserver.Turn{Text: fmt.Sprintf("%s (line %d): %s", marker, tr.Line, tr.Source), ToolCalls: calls}
	}
	return failTurn(fmt.Sprintf("reference policy: the reference of task %s ended without done", p.task.ID))
}

// resume is where the reply goes on from: the turn and its first step;
// or why it cannot go on (a call of the last reply failed, an until text
// never came).
func (p *policy) resume(req *modelserver.ChatRequest, pr place, obs string) (next, from int, failed string) {
	turns, last := p.task.Reference.Turns, pr.last
	if last > len(turns) {
		return 0, 0, fmt.Sprintf("reference policy: the conversation is at turn %d but the reference has %d", last, len(turns))
	}
	if last > 0 {
		for _, m := range req.Messages[pr.at+1:] {
			if m.Role == "tool" && strings.HasPrefix(m.Content, "error:") {
				return 0, 0, p.where(last, turns[last-1]) + " failed: " + m.Content
			}
		}
	}
	switch {
	case pr.upto >= 0: // the turn was sent in parts: its next part
		return last, pr.upto, ""
	case last > 0 && turns[last-1].Until != "" && !strings.Contains(obs, turns[last-1].Until):
		if pr.repeats >= MaxRepeats {
			return 0, 0, fmt.Sprintf("%s: %q did not appear after %d tries", p.where(last, turns[last-1]), turns[last-1].Until, pr.repeats)
		}
		return last, 0, ""
	}
	return last + 1, 0, ""
}

func (p *policy) where(n int, t Turn) string {
	return fmt.Sprintf("reference turn %d of %d (line %d: %s)", n, len(p.task.Reference.Turns), t.Line, t.Source)
}

// calls turns a reference line into tool calls on the current page, from
// its step from on; steps holds each call's step.
func (p *policy) calls(t Turn, from int, obs string, lines []outline.Line) (calls []modelserver.Call, steps []int, err error) {
	for i, s := range t.Steps[from:] {
		spec := verbs[s.Verb]
		if spec.tool == "" {
			if err := checkExpect(s, obs); err != nil {
				return nil, nil, err
			}
			continue
		}
		args := map[string]any{}
		if spec.target {
			ref, err := outline.Resolve(lines, outline.Target{Role: s.Role, Name: s.Name, Partial: s.Partial, Scope: s.Scope})
			if err != nil {
				return nil, nil, err
			}
			args["ref"] = ref
		}
		for name, v := range s.Args {
			x, err := expand(v, obs)
			if err != nil {
				return nil, nil, fmt.Errorf("%s %s: %v", s.Verb, name, err)
			}
			if name == "url" {
				x = joinURL(p.base, x)
			}
			args[name] = x
		}
		for f := range s.Flags {
			args[f] = true
		}
		b, err := json.Marshal(args)
		if err != nil {
			return nil, nil, err
		}
		calls = append(calls, modelserver.Call{Name: spec.tool, Args: string(b)})
		steps = append(steps, from+i)
	}
	return calls, steps, nil
}

func checkExpect(s Step, obs string) error {
	text := s.Args["text"]
	has := strings.Contains(obs, text)
	switch {
	case has && s.Not:
		return fmt.Errorf("expected no %q on the page, but it is there", text)
	case !has && !s.Not:
		return fmt.Errorf("expected %q on the page, but it is not there", text)
	}
	return nil
}

// place is where the conversation is in the reference, from the last
// reply the policy sent.
type place struct {
	last    int // its turn (0 when none)
	upto    int // the turn's steps it had reached when sent in parts, else -1
	repeats int // how many replies in a row were that turn
	same    int // how many replies in a row had its very marker
	at      int // its message index
}

// progress finds the last reply the policy sent.
func progress(req *modelserver.ChatRequest) place {
	pl := place{upto: -1, at: -1}
	marker := ""
	for i := len(req.Messages) - 1; i >= 0; i-- {
		m := req.Messages[i]
		if m.Role != "assistant" {
			continue
		}
		sub := markerRe.FindStringSubmatch(m.Content)
		if sub == nil {
			continue
		}
		n, _ := strconv.Atoi(sub[1])
		if pl.last == 0 && marker == "" {
			pl.last, pl.at, marker = n, i, sub[0]
			if sub[2] != "" {
				pl.upto, _ = strconv.Atoi(sub[2])
			}
		}
		if n != pl.last {
			break
		}
		pl.repeats++
		if sub[0] == marker && pl.same == pl.repeats-1 {
			pl.same++
		}
	}
	return pl
}

// snapshotTool is the agent's tool that shows the whole page again.
const snapshotTool = "snapshot"

// currentPage returns the page as the observations show it: the latest
// observation when it is a whole snapshot, else the latest whole one
// brought up to date by the deltas after it (outline.Apply), under the
// latest header, without the in-view lines; spots are the latest's
// (outline.CutInView). delta reports whether the latest was a delta; err,
// that a delta did not fit the page it follows.
func currentPage(req *modelserver.ChatRequest) (obs string, spots map[string]outline.Spot, delta, ok bool, err error) {
	var chain []string // observations, latest first, back to a whole one
	for i := len(req.Messages) - 1; i >= 0; i-- {
		m := req.Messages[i]
		if m.Role != "user" || !strings.HasPrefix(m.Content, "Observation") {
			continue
		}
		content, in := outline.CutInView(m.Content)
		if len(chain) == 0 {
			spots = in
		}
		chain = append(chain, content)
		if !strings.Contains(m.Content, outline.DeltaHeader) {
			break
		}
	}
	if len(chain) == 0 {
		return "", nil, false, false, nil
	}
	latest := chain[0]
	if len(chain) == 1 || !strings.Contains(latest, outline.DeltaHeader) {
		return latest, spots, false, true, nil
	}
	page := unfenced(snapshotOf(chain[len(chain)-1]))
	for k := len(chain) - 2; k >= 0; k-- {
		_, d, _ := strings.Cut(chain[k], outline.DeltaHeader)
		if page, err = outline.Apply(page, outline.DeltaHeader+unfenced(d)); err != nil {
			return "", nil, false, false, err
		}
	}
	head, _, _ := strings.Cut(latest, outline.DeltaHeader)
	return head + "Snapshot:\n" + page, spots, true, true, nil
}

// unfenced drops the fence's closing line from an observation's part,
// and what follows it (a note of vision marks').
func unfenced(s string) string {
	if i := strings.LastIndex(s, "\n<<<end page-content "); i >= 0 {
		return s[:i]
	}
	return strings.TrimRight(s, "\n")
}

// snapshotOf returns the snapshot part of an observation.
func snapshotOf(obs string) string {
	if _, s, ok := strings.Cut(obs, "Snapshot:\n"); ok {
		return s
	}
	return obs
}

func failTurn(reason string) modelserver.Turn {
	b, _ := json.Marshal(map[string]string{"reason": reason})
	return modelserver.Turn{Text: "I cannot follow the reference solution.", ToolCalls: []modelserver.Call{{Name: "fail", Args: string(b)}}}
}
