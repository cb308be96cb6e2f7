package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/autopolicy"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/policy"
)

// policyFlags are the user's action policy: --policy FILE and --confirm
// PRESETS (run and mcp).
type policyFlags struct {
	files   listFlag // policy files, and "auto"
	confirm listFlag
	// p is the policy, read by load; nil when none is given.
	p *policy.Policy
	// auto: --policy auto, the policy drawn from the task.
	auto bool
}

func (f *policyFlags) register(fs *flag.FlagSet) {
	fs.Var(&f.files, "policy", "an action policy, YAML: rules that allow, deny or confirm (ask you) page actions by tool, site, element and form (see docs/security.md); "+
		"auto draws one from the task before the first action (the sites it needs, what it may do on each), which you see and accept, edit or refuse on a terminal; repeatable, files first")
	fs.Var(&f.confirm, "confirm", "ask you before these actions: "+strings.Join(policy.PresetNames(), ", ")+" (comma-separated or repeated; after --policy's rules); no answer within --human-timeout is a no")
}

// load reads the policy file and the presets; a mistake is a usage error
// that names the file, the line and what to write instead.
func (f *policyFlags) load() error {
	var files []*policy.Policy
	for _, name := range f.files {
		if name == "auto" {
			f.auto = true
			continue
		}
		file, err := policy.Load(name)
		if err != nil {
			return usagef("--policy %v", err)
		}
		files = append(files, file)
	}
	presets, err := policy.Presets(f.confirm...)
	if err != nil {
		return usagef("%v", err)
	}
	f.p = policy.Join(append(files, presets)...)
	return nil
}

// options are the agent options of the policy: the policy, and the person
// who confirms (the terminal, when stdin is one).
func (f *policyFlags) options(h agent.Human, model contract.Model, out io.Writer) []agent.Option {
	var opts []agent.Option
	if f.auto {
		var d agent.PolicyDeriver = autopolicy.Deriver{Model: model}
		if h != nil {
			r := autopolicy.Reviewer{Deriver: d, Person: h, Out: out}
			if ed := cmp.Or(os.Getenv("VISUAL"), os.Getenv("EDITOR")); ed != "" {
				r.Edit = autopolicy.EditWith(ed)
			}
			d = r
		}
		opts = append(opts, agent.WithPolicyDeriver(d))
	}
	if f.p == nil && !f.auto {
		return opts
	}
	opts = append(opts, agent.WithPolicy(f.p))
	if c, ok := h.(agent.Confirmer); ok {
		opts = append(opts, agent.WithConfirmer(c))
	}
	return opts
}

// warnNoOne says, when the policy may ask and no one can answer, that
// every confirmation will be a no.
func (f *policyFlags) warnNoOne(h agent.Human, stderr io.Writer) {
	if h == nil && f.p.Asks() {
		fmt.Fprintln(stderr, "webagent: stdin is not a terminal, so no one can answer the policy's questions: every action it wants confirmed is refused")
	}
}
