package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/webagent/webagent/contract"
)

// Applying an iteration's output to the run: its messages, the error budget,
// and the repetitions that make an agent stuck.

// repeat tracks one action on one page state.
type repeat struct {
	count   int
	outcome string
}

// apply appends an iteration's messages and keeps the error budget and the
// repetition count. It returns a code when the task
// must end.
func (r *run) apply(out *iterOut) (Code, error) {
	var code Code
	var endErr error
	for i, rec := range out.step.Actions {
		if rec.Tool == ToolDone && rec.Error && r.answer != nil {
			r.refused++
			if r.refused > MaxAnswerRetries && code == "" {
				code, endErr = CodeAgentFailed, fmt.Errorf("the answer did not match the schema %d times: %s", r.refused, strings.TrimPrefix(rec.Outcome, "error: "))
			}
		}
		if rec.Skipped || rec.Tool == ToolDone || rec.Tool == ToolFail {
			continue
		}
		if rec.Error {
			r.errors++
			r.consecutive++
		} else {
			r.consecutive = 0
		}
		page := out.page
		if i < len(out.pages) && out.pages[i] != "" {
			page = out.pages[i]
		}
		key := page + "\x00" + rec.Tool + "\x00" + string(rec.Args)
		rp := r.repeats[key]
		if rp.count > 0 && rp.outcome == rec.Outcome {
			rp.count++
		} else {
			rp = repeat{count: 1, outcome: rec.Outcome}
		}
		r.repeats[key] = rp
		switch {
		case rp.count == 2:
			out.results[i].Content += "\nwarning: you did exactly this on this same, unchanged page before, with the same result. " +
				"Repeating it will not make progress; try something else."
		case rp.count > 2 && code == "":
			code, endErr = CodeAgentStuck, fmt.Errorf("the agent repeated %s %s %d times on an unchanged page", rec.Tool, rec.Args, rp.count)
		}
	}
	if c, over := r.overBudget(); over && code == "" {
		code, endErr = c, fmt.Errorf("too many failed tool calls: %d in a row, %d in all (budget %d in a row, %d in all)",
			r.consecutive, r.errors, r.a.cfg.maxConsecutive, r.a.cfg.maxErrors)
	}

	if out.history != nil {
		r.msgs = out.history // the pages left, cut (cutPages)
	}
	if out.rec.note != nil {
		r.msgs = append(r.msgs, *out.rec.note)
	}
	// Messages are only appended while the page stays: each request starts
	// with the previous one (history.go).
	r.msgs = append(r.msgs, out.obs, out.assistant)
	r.msgs = append(r.msgs, out.results...)
	r.shown = len(r.msgs) // what follows is shown in the next request
	r.view, r.wantFull = out.view, out.wantFull
	if out.prompt != "" {
		r.prompt = out.prompt
	}
	if len(out.images) > 0 {
		r.msgs = append(r.msgs, contract.Message{Role: contract.RoleUser, Content: "The screenshot you asked for:", Images: out.images})
	}
	if out.noTool {
		r.msgs = append(r.msgs, contract.Message{Role: contract.RoleUser, Content: reminder})
	}
	return code, endErr
}

func (r *run) overBudget() (Code, bool) {
	if r.consecutive > r.a.cfg.maxConsecutive || r.errors > r.a.cfg.maxErrors {
		return CodeMaxErrors, true
	}
	return "", false
}

// fingerprint identifies a page state for repetition checks.
func fingerprint(s contract.Snapshot) string {
	h := sha256.Sum256([]byte(s.URL + "\x00" + s.Text))
	return hex.EncodeToString(h[:8])
}
