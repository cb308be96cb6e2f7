package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/policy"
)

// policyFlags are the user's action policy: --policy FILE and --confirm
// PRESETS (run and mcp).
type policyFlags struct {
	file    string
	confirm listFlag
	// p is the policy, read by load; nil when none is given.
	p *policy.Policy
}

func (f *policyFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.file, "policy", "", "an action policy, YAML: rules that allow, deny or confirm (ask you) page actions by tool, site, element and form (see README, Guardrails)")
	fs.Var(&f.confirm, "confirm", "ask you before these actions: "+strings.Join(policy.PresetNames(), ", ")+" (comma-separated or repeated; after --policy's rules); no answer within --human-timeout is a no")
}

// load reads the policy file and the presets; a mistake is a usage error
// that names the file, the line and what to write instead.
func (f *policyFlags) load() error {
	var file *policy.Policy
	if f.file != "" {
		var err error
		if file, err = policy.Load(f.file); err != nil {
			return usagef("--policy %v", err)
		}
	}
	presets, err := policy.Presets(f.confirm...)
	if err != nil {
		return usagef("%v", err)
	}
	f.p = policy.Join(file, presets)
	return nil
}

// options are the agent options of the policy: the policy, and the person
// who confirms (the terminal, when stdin is one).
func (f *policyFlags) options(h agent.Human) []agent.Option {
	if f.p == nil {
		return nil
	}
	opts := []agent.Option{agent.WithPolicy(f.p)}
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
