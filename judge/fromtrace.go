package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/trace"
)

// Bounds of a trajectory read from a trace.
const (
	maxOutcome = 300  // an action's outcome, in the history
	maxArgs    = 200  // an action's arguments
	maxPayload = 2000 // a blocked request's payload
)

// FromTrace reads the trace in dir (package trace's format) as a
// trajectory: the task and start URL of its header, each step's actions
// with what the browser reported, the page text the agent saw (its
// observation), the screenshot after it, the requests --read-only
// stopped, and the answer and ending of its end event. A trace cut short
// (the run was killed) gives the steps it holds. The trace's text is
// masked already: no secret value is in the trajectory.
func FromTrace(dir string) (Trajectory, error) {
	t, err := trace.Read(dir)
	if err != nil && !errors.Is(err, trace.ErrTruncated) {
		return Trajectory{}, err
	}
	tr := Trajectory{Task: t.Header.Task, URL: t.Header.URL}
	for _, ev := range t.Steps {
		st := Step{Iteration: ev.Iteration, URL: ev.Step.URL}
		for _, a := range ev.Step.Actions {
			if a.Tool == agent.ToolDone || a.Tool == agent.ToolFail {
				if a.Tool == agent.ToolDone && !a.Error && !a.Skipped {
					tr.Answer = doneAnswer(a.Args)
				}
				continue
			}
			st.Actions = append(st.Actions, actionLine(a))
		}
		for _, b := range ev.Blocked {
			st.Blocked = append(st.Blocked, BlockedLine(b))
		}
		if m := t.Model(ev.Iteration); m != nil {
			st.Page = m.Observation
		}
		if ev.Screenshot != "" {
			shot, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(ev.Screenshot)))
			if err == nil {
				st.Screenshot, st.ScreenshotFile = shot, ev.Screenshot
			}
		}
		tr.Steps = append(tr.Steps, st)
	}
	if t.End != nil {
		r := t.End.Result
		if r.Answer != "" {
			tr.Answer = r.Answer
		}
		if r.Code != agent.CodeSuccess {
			tr.Ending = strings.TrimSpace(string(r.Code) + ": " + r.Message)
		}
	} else {
		tr.Ending = "the run did not end (it was killed, or its trace was cut short)"
	}
	return tr, nil
}

// BlockedLine is a blocked request as the judge reads it: the method, the
// URL and what would have been sent.
func BlockedLine(b contract.BlockedRequest) string {
	line := b.Method + " " + b.URL
	if b.Payload != "" {
		line += " would have sent: " + clip(b.Payload, maxPayload)
	}
	return line
}

// actionLine is one action as the history shows it: the tool, its
// arguments and what the browser reported.
func actionLine(a agent.ActionRecord) string {
	line := a.Tool
	if args := compactArgs(a.Args); args != "" && args != "{}" {
		line += " " + clip(args, maxArgs)
	}
	switch {
	case a.Skipped:
		line += " (not run)"
	case a.Error:
		line += " → error: " + clip(oneLine(strings.TrimPrefix(a.Outcome, "error: ")), maxOutcome)
	case a.Outcome != "":
		line += " → " + clip(oneLine(a.Outcome), maxOutcome)
	}
	return line
}

func compactArgs(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

// doneAnswer is the answer a done call carried.
func doneAnswer(raw json.RawMessage) string {
	var args struct {
		Answer json.RawMessage `json:"answer"`
	}
	if json.Unmarshal(raw, &args) != nil || len(args.Answer) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(args.Answer, &s) == nil {
		return s
	}
	return string(args.Answer)
}

// String is a one-line summary of the verdict, for logs and reports.
func (v Verdict) String() string {
	if v.Outcome == Unscored {
		return "unscored: " + v.Why
	}
	chosen := 0
	for _, s := range v.Steps {
		if s.Chosen {
			chosen++
		}
	}
	return fmt.Sprintf("%s (%d key points, %d of %d steps chosen)", v.Outcome, len(v.KeyPoints), chosen, len(v.Steps))
}
