package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/webagent/webagent/routine"
)

// paramFlag is routine run's --param NAME=VALUE, repeatable.
type paramFlag struct{ vals []string }

func (p *paramFlag) String() string { return strings.Join(p.vals, ",") }

func (p *paramFlag) Set(s string) error {
	if !strings.Contains(s, "=") {
		return fmt.Errorf("want NAME=VALUE, got %q", s)
	}
	p.vals = append(p.vals, s)
	return nil
}

// routineRunFlags are run's flags and --param; --url is the site to run
// the routine on (its origin replaces the recorded one).
func routineRunFlags() (*flag.FlagSet, *runOpts, *paramFlag) {
	fs, o := runFlags()
	pf := &paramFlag{}
	fs.Var(pf, "param", "NAME=VALUE a value of the routine's parameters (repeatable); JSON for a parameter that is not a string")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: webagent routine run NAME [--param NAME=VALUE ...] [flags]\n\n"+
			"Runs the routine's current version in a real Chromium with no model while its steps fit the page; every flag of webagent run applies.\n"+
			"--url, when given, is the site to run it on: its origin replaces the one the routine was saved on. --routines defaults to webagent/routines under your config folder.\n"+
			"A model (--model, --base-url) is asked only for a step that no longer fits; the repaired routine is kept as a draft (webagent routine diff NAME).\n\n")
		fs.PrintDefaults()
	}
	return fs, o, pf
}

// cmdRoutineRun runs one routine as a task: the loop with the routine's
// tool, driven with no model (routine.Drive).
func cmdRoutineRun(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs, o, pf := routineRunFlags()
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return exitUsage, err
	}
	if len(pos) != 1 {
		return exitUsage, usagef("routine run takes one routine's name: webagent routine run NAME --param NAME=VALUE")
	}
	s, err := o.routines.store()
	if err != nil {
		return exitUsage, err
	}
	r, err := s.Load(pos[0])
	if err != nil {
		return exitUsage, usagef("routine run: %v", err)
	}
	if r.Draft != nil {
		fmt.Fprintf(stderr, "routine %s: version %d runs; a healed draft (version %d) waits for a person's yes: webagent routine diff %s, then accept\n", r.Name, r.Version, r.Draft.Version, r.Name)
	}
	params, err := routineParams(r, pf.vals)
	if err != nil {
		return exitUsage, err
	}
	start := r.Source.URL
	if o.url != "" {
		u, err := url.Parse(o.url)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			return exitUsage, usagef("--url %q: give the site to run the routine on, e.g. https://staging.example.org", o.url)
		}
		o.routines.base = u.Scheme + "://" + u.Host
		if from, err := url.Parse(start); err == nil {
			start = o.routines.base + from.RequestURI()
		}
	}
	o.url = start
	o.routines.only, o.routines.params = r, params
	o.modelOptional = true
	task := fmt.Sprintf("Run the routine %s (version %d) with %s", r.Name, r.Version, params)
	for i, name := range r.Secrets {
		// Named in the task, a secret without its --secret is bad input
		// before the browser starts.
		task += map[bool]string{true: ", typing ", false: " and "}[i == 0] + "<secret>" + name + "</secret>"
	}
	return o.start(ctx, task, stdout, stderr)
}

// routineParams makes --param's values the routine's JSON object,
// checked against its schema; a value of a parameter that is not a
// string is read as JSON.
func routineParams(r *routine.Routine, vals []string) (json.RawMessage, error) {
	var schema struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(r.Parameters, &schema)
	obj := map[string]any{}
	for _, kv := range vals {
		k, v, _ := strings.Cut(kv, "=")
		p, ok := schema.Properties[k]
		if !ok {
			return nil, usagef("--param %s: %s has no parameter %s (its parameters: %s)", k, r.Name, k, listOrNone(paramList(r)))
		}
		if t, _ := p.Type.(string); t != "" && t != "string" {
			var x any
			if err := json.Unmarshal([]byte(v), &x); err != nil {
				return nil, usagef("--param %s: the value of a %s parameter is JSON: %v", k, t, err)
			}
			obj[k] = x
			continue
		}
		obj[k] = v
	}
	data, _ := json.Marshal(obj)
	if err := routine.CheckParams(r, data); err != nil {
		return nil, usagef("--param: %v", err)
	}
	return data, nil
}
