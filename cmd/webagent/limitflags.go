package main

import (
	"flag"
	"fmt"
	"strconv"
	"time"

	"github.com/webagent/webagent/agent"
)

// registerLimits registers the flags of a run's bounds, one flag for each
// field of agent.Limits, writing into l. Every command that bounds a run
// (run, eval, mcp, submit) registers them here, so each has one name, one
// help text and one check everywhere. A timeout flag's 0 means none
// (Limits' negative), except --human-timeout, which must be positive.
func registerLimits(fs *flag.FlagSet, l *agent.Limits) {
	fs.Var(&countFlag{&l.MaxIterations, agent.DefaultMaxIterations}, "max-iterations",
		"stop after `n` observe-decide-act iterations")
	fs.Var(&timeoutFlag{&l.IterationTimeout, agent.DefaultIterationTimeout, true}, "iteration-timeout",
		"bound on one iteration (snapshot, model call, actions), a Go `duration` such as 90s; 0 disables")
	fs.Var(&timeoutFlag{&l.TaskTimeout, 0, true}, "task-timeout",
		"bound on the whole task, a Go `duration`; 0 means none")
	fs.Var(&timeoutFlag{&l.StartTimeout, agent.DefaultStartTimeout, true}, "start-timeout",
		"bound on opening the start URL, before the first iteration (a `duration`; 0 disables)")
	registerOperationTimeout(fs, l)
	fs.Var(&timeoutFlag{&l.HumanTimeout, agent.DefaultHumanTimeout, false}, "human-timeout",
		"how long the agent waits for a person's answer (ask_human, a confirmation) before going on; the question stays open (a `duration`)")
	fs.Var(&policyFlag{&l.TimeoutPolicy}, "iteration-timeout-policy",
		"what an iteration timeout does (`policy`): fatal (end the task) or recover (recover the page, tell the model, go on)")
	fs.Var(&countFlag{&l.MaxIterationTimeouts, agent.DefaultMaxIterationTimeouts}, "max-iteration-timeouts",
		"with the recover policy, end the task at `n` timed-out iterations")
	fs.Var(&countFlag{&l.MaxContextTokens, agent.DefaultMaxContextTokens}, "max-context-tokens",
		"the most the conversation may hold, in `tokens` (four bytes each); past it older observations are cut once to their header")
}

// registerOperationTimeout registers --operation-timeout alone, for the
// commands bounded by it and no other limit (webagent browser's).
func registerOperationTimeout(fs *flag.FlagSet, l *agent.Limits) {
	fs.Var(&timeoutFlag{&l.OperationTimeout, agent.DefaultOperationTimeout, true}, "operation-timeout",
		"backstop above every tool's own budget: a tool still running then is abandoned and the model told (OPERATION_TIMEOUT), a `duration`; 0 disables")
}

// countFlag is a count of agent.Limits: at least 1; unset, the default.
type countFlag struct {
	n   *int
	def int
}

func (f *countFlag) String() string {
	if f.n == nil || *f.n == 0 {
		return strconv.Itoa(f.def)
	}
	return strconv.Itoa(*f.n)
}

func (f *countFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("not a whole number")
	}
	if n < 1 {
		return fmt.Errorf("it must be at least 1")
	}
	*f.n = n
	return nil
}

func (f *countFlag) Get() any { return *f.n }

// timeoutFlag is a timeout of agent.Limits. Unset, the default; 0 is none
// where none may be (zeroNone), stored as Limits' negative.
type timeoutFlag struct {
	d        *time.Duration
	def      time.Duration
	zeroNone bool
}

func (f *timeoutFlag) String() string {
	switch {
	case f.d == nil || *f.d == 0:
		return f.def.String()
	case *f.d < 0:
		return "0s"
	}
	return f.d.String()
}

func (f *timeoutFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		return err
	case d < 0 && f.zeroNone:
		return fmt.Errorf("use a positive duration such as 2m, or 0 for none")
	case d <= 0 && !f.zeroNone:
		return fmt.Errorf("use a positive duration such as 1m")
	case d == 0:
		*f.d = -1
	default:
		*f.d = d
	}
	return nil
}

// Get returns the duration, so that a value that is no duration is told
// as such (flagError).
func (f *timeoutFlag) Get() any { return *f.d }

// policyFlag is Limits.TimeoutPolicy.
type policyFlag struct{ p *agent.TimeoutPolicy }

func (f *policyFlag) String() string {
	if f.p == nil || *f.p == "" {
		return string(agent.PolicyFatal)
	}
	return string(*f.p)
}

func (f *policyFlag) Set(s string) error {
	switch p := agent.TimeoutPolicy(s); p {
	case agent.PolicyFatal, agent.PolicyRecover:
		*f.p = p
		return nil
	}
	return fmt.Errorf("not %s or %s", agent.PolicyFatal, agent.PolicyRecover)
}
