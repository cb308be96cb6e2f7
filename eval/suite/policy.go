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

var markerRe = regexp.MustCompile(`^Reference turn ([0-9]+) of [0-9]+`)

// Respond decides the next reply from the conversation so far.
func (p *policy) Respond(req *modelserver.ChatRequest) modelserver.Turn {
	if p.task.Reference == nil || len(p.task.Reference.Turns) == 0 {
		return failTurn(fmt.Sprintf("task %s has no reference solution", p.task.ID))
	}
	turns := p.task.Reference.Turns
	obs, delta, ok := currentPage(req)
	if !ok {
		return failTurn("reference policy: the request holds no page observation")
	}
	last, repeats, at := progress(req)
	if last > len(turns) {
		return failTurn(fmt.Sprintf("reference policy: the conversation is at turn %d but the reference has %d", last, len(turns)))
	}
	if last > 0 {
		for _, m := range req.Messages[at+1:] {
			if m.Role == "tool" && strings.HasPrefix(m.Content, "error:") {
				return failTurn(p.where(last, turns[last-1]) + " failed: " + m.Content)
			}
		}
	}
	next := last + 1
	if last > 0 && turns[last-1].Until != "" && !strings.Contains(obs, turns[last-1].Until) {
		if repeats >= MaxRepeats {
			return failTurn(fmt.Sprintf("%s: %q did not appear after %d tries", p.where(last, turns[last-1]), turns[last-1].Until, repeats))
		}
		next = last
	}
	lines := outline.Parse(snapshotOf(obs))
	for ; next <= len(turns); next++ {
		tr := turns[next-1]
		if next != last && tr.Until != "" && strings.Contains(obs, tr.Until) {
			continue // already there: repeat zero times
		}
		calls, err := p.calls(tr, obs, lines)
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
		return modelserver.Turn{Text: fmt.Sprintf("%s%d of %d (line %d): %s", markerPrefix, next, len(turns), tr.Line, tr.Source), ToolCalls: calls}
	}
	return failTurn(fmt.Sprintf("reference policy: the reference of task %s ended without done", p.task.ID))
}

func (p *policy) where(n int, t Turn) string {
	return fmt.Sprintf("reference turn %d of %d (line %d: %s)", n, len(p.task.Reference.Turns), t.Line, t.Source)
}

// calls turns a reference line into tool calls on the current page.
func (p *policy) calls(t Turn, obs string, lines []outline.Line) ([]modelserver.Call, error) {
	var calls []modelserver.Call
	for _, s := range t.Steps {
		spec := verbs[s.Verb]
		if spec.tool == "" {
			if err := checkExpect(s, obs); err != nil {
				return nil, err
			}
			continue
		}
		args := map[string]any{}
		if spec.target {
			ref, err := outline.Resolve(lines, outline.Target{Role: s.Role, Name: s.Name, Partial: s.Partial, Scope: s.Scope})
			if err != nil {
				return nil, err
			}
			args["ref"] = ref
		}
		for name, v := range s.Args {
			x, err := expand(v, obs)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %v", s.Verb, name, err)
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
			return nil, err
		}
		calls = append(calls, modelserver.Call{Name: spec.tool, Args: string(b)})
	}
	return calls, nil
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

// progress finds the last reply the policy sent: its turn number (0 when
// none), how many replies in a row were that turn, and its message index.
func progress(req *modelserver.ChatRequest) (last, repeats, at int) {
	at = -1
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
		if last == 0 {
			last, at = n, i
		}
		if n != last {
			break
		}
		repeats++
	}
	return last, repeats, at
}

// snapshotTool is the agent's tool that shows the whole page again.
const snapshotTool = "snapshot"

// currentPage returns the page as the observations show it: the latest
// observation when it is a whole snapshot, else the latest whole one
// brought up to date by the deltas after it (outline.Apply), under the
// latest header. delta reports whether the latest was a delta.
func currentPage(req *modelserver.ChatRequest) (obs string, delta bool, ok bool) {
	var chain []string // observations, latest first, back to a whole one
	for i := len(req.Messages) - 1; i >= 0; i-- {
		m := req.Messages[i]
		if m.Role != "user" || !strings.HasPrefix(m.Content, "Observation") {
			continue
		}
		chain = append(chain, m.Content)
		if !strings.Contains(m.Content, outline.DeltaHeader) {
			break
		}
	}
	if len(chain) == 0 {
		return "", false, false
	}
	latest := chain[0]
	if len(chain) == 1 || !strings.Contains(latest, outline.DeltaHeader) {
		return latest, false, true
	}
	page := unfenced(snapshotOf(chain[len(chain)-1]))
	for k := len(chain) - 2; k >= 0; k-- {
		_, d, _ := strings.Cut(chain[k], outline.DeltaHeader)
		page = outline.Apply(page, outline.DeltaHeader+unfenced(d))
	}
	head, _, _ := strings.Cut(latest, outline.DeltaHeader)
	return head + "Snapshot:\n" + page, true, true
}

// unfenced drops the fence's closing line from the end of an
// observation's part.
func unfenced(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndex(s, "\n"); i >= 0 && strings.HasPrefix(s[i+1:], "<<<end") {
		return s[:i]
	}
	return s
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
