package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/routine"
	"github.com/webagent/webagent/trace"
)

const routineUsage = `Usage: webagent routine COMMAND [flags]

  save RUN --name NAME   make a routine of a run that worked: RUN is a trace folder (run --trace) or a cache entry
  check NAME             validate a routine without a browser; names the line of each mistake
  list                   the routines: name, version, parameters, drafts
  run NAME --param K=V   run a routine (no model while it fits; every flag of webagent run)
  diff NAME              a healed draft against the current version
  accept NAME            make the draft the current version

Routines live in --routines DIR (default: webagent/routines under your config folder).
`

// routineOpUsage is each routine command's usage line and what it does.
var routineOpUsage = map[string]string{
	"save":   "Usage: webagent routine save RUN --name NAME [--description TEXT]\n\nMakes a routine of a run that worked: RUN is a folder written by run --trace, or a run cache entry (its variables become\nparameters of the same names). The values the task gave become parameters, secrets are kept by name, elements by role and name.",
	"check":  "Usage: webagent routine check NAME\n\nValidates a routine without a browser (its manifest, its program, its draft) and names the line of each mistake; exit 1 when it finds one.",
	"list":   "Usage: webagent routine list [--json]\n\nThe routines: name, current version, parameters, a draft waiting for a person's yes, description.",
	"diff":   "Usage: webagent routine diff NAME\n\nThe healed draft against the current version, as a unified diff, with what each healed step looked for and found.",
	"accept": "Usage: webagent routine accept NAME\n\nMakes the draft the current version (the versions before stay as vN.js).",
}

// cmdRoutine runs webagent routine COMMAND.
func cmdRoutine(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, routineUsage)
		if len(args) == 0 {
			return exitUsage, usagef("routine: name a command: save, check, list, run, diff or accept")
		}
		return exitOK, nil
	}
	switch args[0] {
	case "save":
		return cmdRoutineSave(args[1:], stdout)
	case "run":
		return cmdRoutineRun(ctx, args[1:], stdout, stderr)
	case "check", "list", "diff", "accept":
		return cmdRoutineStore(args[0], args[1:], stdout)
	}
	return exitUsage, usagef("routine: unknown command %q; use save, check, list, run, diff or accept", args[0])
}

// routineFlags is the flag set of the routine commands that read or write
// the folder only.
func routineFlags(op string) (*flag.FlagSet, *routinesFlag, *bool) {
	fs := flag.NewFlagSet("routine "+op, flag.ContinueOnError)
	rf := &routinesFlag{}
	rf.registerDefault(fs)
	var asJSON *bool
	if op == "list" {
		asJSON = fs.Bool("json", false, "print the list as JSON")
	}
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), routineOpUsage[op]+"\n\nFlags:\n")
		printFlags(fs)
	}
	return fs, rf, asJSON
}

func cmdRoutineSave(args []string, stdout io.Writer) (int, error) {
	fs, rf, _ := routineFlags("save")
	name := fs.String("name", "", "the routine's name: lower-case letters, digits, - and _ (add-customer)")
	desc := fs.String("description", "", "what the routine does, for the model that chooses it (default: the run's task, its values as {parameters})")
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return exitUsage, err
	}
	if len(pos) != 1 || *name == "" {
		return exitUsage, usagef("routine save takes one run and a name: webagent routine save RUN --name NAME (RUN: a folder written by run --trace, or a cache entry)")
	}
	if err := routine.CheckName(*name); err != nil {
		return exitUsage, usagef("--name: %v", err)
	}
	s, err := rf.store()
	if err != nil {
		return exitUsage, err
	}
	t, err := trace.Read(pos[0])
	if err != nil {
		return exitUsage, usagef("routine save: %v", err)
	}
	src, _ := filepath.Abs(pos[0])
	r, err := routine.FromTrace(t, routine.SaveOptions{Name: *name, Description: *desc, Vars: entryVars(pos[0]), Source: src})
	if err == nil {
		err = s.Create(r)
	}
	if err != nil {
		return exitUsage, usagef("routine save: %v", err)
	}
	fmt.Fprintf(stdout, "saved the routine %s (version 1) in %s\n", r.Name, r.Dir)
	fmt.Fprintf(stdout, "  parameters: %s\n", listOrNone(paramList(r)))
	if len(r.Secrets) > 0 {
		fmt.Fprintf(stdout, "  secrets (give each with --secret NAME=VALUE): %s\n", strings.Join(r.Secrets, ", "))
	}
	fmt.Fprintf(stdout, "  read or edit %s, then: webagent routine check %s; webagent routine run %s%s\n", filepath.Join(r.Dir, r.File), r.Name, r.Name, paramExample(r))
	return exitOK, nil
}

// entryVars are a cache entry's recorded variables (its entry.json); nil
// for a trace folder.
func entryVars(dir string) map[string]string {
	data, err := os.ReadFile(filepath.Join(dir, "entry.json"))
	if err != nil {
		return nil
	}
	var e struct {
		Vars map[string]string `json:"vars"`
	}
	_ = json.Unmarshal(data, &e)
	return e.Vars
}

func cmdRoutineStore(op string, args []string, stdout io.Writer) (int, error) {
	fs, rf, asJSON := routineFlags(op)
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return exitUsage, err
	}
	want := 1
	if op == "list" {
		want = 0
	}
	if len(pos) != want {
		return exitUsage, usagef("routine %s takes %s", op, map[bool]string{true: "no argument", false: "a routine's name: webagent routine " + op + " NAME"}[want == 0])
	}
	s, err := rf.store()
	if err != nil {
		return exitUsage, err
	}
	switch op {
	case "list":
		return routineList(s, *asJSON, stdout)
	case "check":
		probs, err := s.Check(pos[0])
		if err != nil {
			return routineErr(err)
		}
		for _, p := range probs {
			fmt.Fprintln(stdout, p)
		}
		if len(probs) > 0 {
			return exitFailed, fmt.Errorf("routine %s: %d problems", pos[0], len(probs))
		}
		fmt.Fprintf(stdout, "routine %s: ok\n", pos[0])
		return exitOK, nil
	case "diff":
		d, err := s.Diff(pos[0])
		if err != nil {
			return routineErr(err)
		}
		fmt.Fprint(stdout, d)
		return exitOK, nil
	}
	r, err := s.Accept(pos[0])
	if err != nil {
		return routineErr(err)
	}
	fmt.Fprintf(stdout, "routine %s: version %d is current (%s)\n", r.Name, r.Version, filepath.Join(r.Dir, r.File))
	return exitOK, nil
}

// routineErr is a routine command's error: a name not in the folder is bad
// input; anything else (a draft missing, a broken file) a failure.
func routineErr(err error) (int, error) {
	if routine.IsCode(err, routine.CodeNotFound) || routine.IsCode(err, routine.CodeName) {
		return exitUsage, usagef("%v", err)
	}
	return exitFailed, err
}

func routineList(s *routine.Store, asJSON bool, stdout io.Writer) (int, error) {
	names, err := s.Names()
	if err != nil {
		return exitFailed, err
	}
	type row struct {
		Name        string   `json:"name"`
		Version     int      `json:"version"`
		Parameters  []string `json:"parameters"`
		Secrets     []string `json:"secrets,omitempty"`
		Draft       int      `json:"draft,omitempty"`
		Description string   `json:"description"`
		Error       string   `json:"error,omitempty"`
	}
	var rows []row
	for _, n := range names {
		r, err := s.Load(n)
		if err != nil {
			rows = append(rows, row{Name: n, Error: err.Error()})
			continue
		}
		rw := row{Name: n, Version: r.Version, Parameters: paramList(r), Secrets: r.Secrets, Description: r.Description}
		if r.Draft != nil {
			rw.Draft = r.Draft.Version
		}
		rows = append(rows, rw)
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if rows == nil {
			rows = []row{}
		}
		return exitOK, enc.Encode(rows)
	}
	if len(rows) == 0 {
		fmt.Fprintf(stdout, "no routines in %s (save one: webagent routine save RUN --name NAME)\n", s.Dir())
		return exitOK, nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tVERSION\tPARAMETERS\tDRAFT\tDESCRIPTION")
	for _, r := range rows {
		draft := "-"
		if r.Draft > 0 {
			draft = fmt.Sprintf("v%d (webagent routine diff %s)", r.Draft, r.Name)
		}
		if r.Error != "" {
			fmt.Fprintf(tw, "%s\t?\t\t\t%s\n", r.Name, r.Error)
			continue
		}
		fmt.Fprintf(tw, "%s\tv%d\t%s\t%s\t%s\n", r.Name, r.Version, listOrNone(r.Parameters), draft, oneLine(r.Description, 60))
	}
	return exitOK, tw.Flush()
}

func paramList(r *routine.Routine) []string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	_ = json.Unmarshal(r.Parameters, &s)
	out := append([]string(nil), s.Required...)
	for k := range s.Properties {
		if !contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func listOrNone(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return strings.Join(list, ", ")
}

func paramExample(r *routine.Routine) string {
	var b strings.Builder
	for _, p := range paramList(r) {
		b.WriteString(" --param " + p + "=…")
	}
	return b.String()
}

// noModel is the model of a routine run with none configured: the routine
// runs with no model, and a step that would need healing fails.
type noModel struct{}

func (noModel) Complete(context.Context, contract.Request) (contract.Reply, error) {
	return contract.Reply{}, errors.New("no model is configured (pass --model and --base-url to let one heal a step that no longer fits)")
}
