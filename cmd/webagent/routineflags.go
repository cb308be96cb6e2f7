package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/routine"
)

// routinesFlag is --routines DIR: the routines folder. run and mcp offer
// its routines to the model only when it is given; the routine commands
// use the default folder (routine.DefaultDir) without it.
type routinesFlag struct {
	dir string
	// Set by webagent routine run: the one routine the run calls, with
	// its values, and no other.
	only   *routine.Routine
	params json.RawMessage
	base   string
}

func (r *routinesFlag) register(fs *flag.FlagSet) {
	fs.StringVar(&r.dir, "routines", "", "a folder of routines (webagent routine save): each is offered to the model as a tool, routine_NAME, that runs its saved steps with the values the model gives, under every rule of the run")
}

// registerDefault registers --routines for the routine commands, whose
// folder has a default.
func (r *routinesFlag) registerDefault(fs *flag.FlagSet) {
	fs.StringVar(&r.dir, "routines", "", "the folder of routines (default: webagent/routines in your config folder, ~/.config/webagent/routines)")
}

// store opens the folder, the default one when none was given; a file in
// its place is a usage error.
func (r *routinesFlag) store() (*routine.Store, error) {
	if r.dir == "" {
		d, err := routine.DefaultDir()
		if err != nil {
			return nil, usagef("--routines: %v", err)
		}
		r.dir = d
	}
	s, err := routine.Open(r.dir)
	if err != nil {
		return nil, usagef("--routines: %v", err)
	}
	return s, nil
}

// options are the loop's options for the routines: the one routine of
// webagent routine run (driven, with no model), or each routine of the
// folder as a tool. model heals a step that no longer fits.
func (r *routinesFlag) options(model contract.Model, stderr io.Writer) ([]agent.Option, error) {
	if r.dir == "" && r.only == nil {
		return nil, nil
	}
	s, err := r.store()
	if err != nil {
		return nil, err
	}
	to := routine.ToolOptions{Base: r.base, Progress: func(line string) { fmt.Fprintln(stderr, line) }}
	if _, none := model.(noModel); !none && model != nil {
		to.Healer = routine.ModelHealer(model, 0)
	}
	if r.only != nil {
		return []agent.Option{agent.WithTools(routine.Tool(s, r.only, to)), agent.WithRecording(routine.Drive(r.only, r.params))}, nil
	}
	tools, err := routine.Tools(s, to)
	if err != nil {
		return nil, usagef("--routines: %v", err)
	}
	return []agent.Option{agent.WithTools(tools...)}, nil
}

// forMCP is mcp --routines: the folder for the server's routine tools and
// the options that offer them to run_task's loop; nothing without it.
func (r *routinesFlag) forMCP(model contract.Model, stderr io.Writer) (*routine.Store, []agent.Option, error) {
	if r.dir == "" {
		return nil, nil, nil
	}
	s, err := r.store()
	if err != nil {
		return nil, nil, err
	}
	opts, err := r.options(model, stderr)
	return s, opts, err
}
