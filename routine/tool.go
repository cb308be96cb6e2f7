package routine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/webagent/webagent/agent"
)

// ToolOptions configure the routines offered as tools.
type ToolOptions struct {
	// Healer repairs a step that no longer fits (the run's own model will
	// do); nil ends such a call with the step's error, and the model goes
	// on by itself.
	Healer Healer
	// Base replaces the routines' recorded origin (RunOptions.Base).
	Base string
	// Progress, when set, is told each routine call's end, in one line.
	Progress func(line string)
}

// Tools offers every routine of s to package agent's loop: a tool each,
// named routine_NAME, described by its description, taking its
// parameters. A call runs the routine's current version (never a draft)
// through the run's gate (agent.PageCaller), under the script's bound; a
// healed run writes a draft to s, which a person accepts.
func Tools(s *Store, o ToolOptions) ([]agent.CustomTool, error) {
	names, err := s.Names()
	if err != nil {
		return nil, err
	}
	var out []agent.CustomTool
	for _, n := range names {
		r, err := s.Load(n)
		if err != nil {
			return nil, err
		}
		if err := Validate(r.Manifest, r.Program); err != nil {
			return nil, fmt.Errorf("routine %s cannot be offered: %w (webagent routine check %s)", n, err, n)
		}
		out = append(out, Tool(s, r, o))
	}
	return out, nil
}

// Tool is one routine as a tool of package agent's loop (see Tools).
func Tool(s *Store, r *Routine, o ToolOptions) agent.CustomTool {
	desc := r.Description
	if len(r.Secrets) > 0 {
		desc += " It types the secrets " + strings.Join(r.Secrets, ", ") + " itself."
	}
	return agent.CustomTool{
		Name:        r.ToolName(),
		Description: "Routine: " + desc,
		Parameters:  r.Parameters,
		RunPage: func(ctx context.Context, args json.RawMessage, page agent.PageCaller) (string, error) {
			res, err := Run(ctx, page, r, args, RunOptions{Healer: o.Healer, Store: s, Base: o.Base})
			if o.Progress != nil {
				o.Progress(progressLine(r, res, err))
			}
			if err != nil {
				return "", err
			}
			return Outcome(r, res), nil
		},
	}
}

// Outcome is a routine's result as a model reads it: what it returned,
// the calls it made, and the steps healed (with the draft a person must
// accept).
func Outcome(r *Routine, res *Result) string {
	o := map[string]any{"routine": r.Name, "version": r.Version, "result": res.Value, "calls": res.Calls}
	if len(res.Heals) > 0 {
		var hs []string
		for _, h := range res.Heals {
			hs = append(hs, h.String())
		}
		o["healed"] = hs
	}
	if res.Draft != nil {
		o["draft"] = fmt.Sprintf("the repaired steps are kept as a draft (version %d), not used until a person accepts it: webagent routine accept %s", res.Draft.Version, r.Name)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(o)
	return strings.TrimSpace(b.String())
}

func progressLine(r *Routine, res *Result, err error) string {
	switch {
	case err != nil:
		return fmt.Sprintf("routine %s v%d: %v", r.Name, r.Version, err)
	case res.Draft != nil:
		steps := "steps"
		if len(res.Heals) == 1 {
			steps = "step"
		}
		return fmt.Sprintf("routine %s v%d: done in %d calls; %d %s healed, kept as draft v%d (webagent routine diff %s)", r.Name, r.Version, res.Calls, len(res.Heals), steps, res.Draft.Version, r.Name)
	}
	return fmt.Sprintf("routine %s v%d: done in %d calls", r.Name, r.Version, res.Calls)
}
