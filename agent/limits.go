package agent

import (
	"cmp"
	"errors"
	"fmt"
	"time"
)

// Limits are every bound of one run, documented together as
// net/http.Server's timeouts are. A zero field takes its default; a
// negative timeout means none (as net.Dialer's KeepAlive). The CLI, the
// eval task files, the MCP server and the fleet's tasks all carry their
// bounds as one Limits value, and WithLimits hands it to the loop.
//
// Bounds nest, outermost first: TaskTimeout (→ TASK_TIMEOUT), StartTimeout
// for the first navigation (→ BROWSER_ERROR), IterationTimeout around each
// snapshot, model call and action batch (→ ITERATION_TIMEOUT), and
// OperationTimeout, the backstop above every tool's own budget (the model
// is told, the task goes on). HumanTimeout bounds one wait for a person
// inside an iteration.
type Limits struct {
	// MaxIterations caps the observe-decide-act iterations (default
	// DefaultMaxIterations, 50).
	MaxIterations int `json:"max_iterations,omitempty"`
	// IterationTimeout bounds each iteration (default
	// DefaultIterationTimeout, 300s).
	IterationTimeout time.Duration `json:"iteration_timeout,omitempty"`
	// TaskTimeout bounds the whole task, start navigation included
	// (default none but the caller's context).
	TaskTimeout time.Duration `json:"task_timeout,omitempty"`
	// StartTimeout bounds the navigation to the task's start URL, before
	// the first iteration (default DefaultStartTimeout, 60s).
	StartTimeout time.Duration `json:"start_timeout,omitempty"`
	// OperationTimeout is the dispatch backstop above every tool's own
	// budget (default DefaultOperationTimeout, 120s).
	OperationTimeout time.Duration `json:"operation_timeout,omitempty"`
	// HumanTimeout bounds one wait for a person: an ask_human question,
	// a confirmation of the policy (default DefaultHumanTimeout, 60s). It
	// cannot be none: a wait for a person always ends.
	HumanTimeout time.Duration `json:"human_timeout,omitempty"`
	// TimeoutPolicy says what an iteration timeout does (default
	// PolicyFatal).
	TimeoutPolicy TimeoutPolicy `json:"timeout_policy,omitempty"`
	// MaxIterationTimeouts ends a task under PolicyRecover at this many
	// timed-out iterations (default DefaultMaxIterationTimeouts, 3).
	MaxIterationTimeouts int `json:"max_iteration_timeouts,omitempty"`
	// MaxContextTokens is the most the conversation may hold, in tokens
	// estimated at four bytes each (default DefaultMaxContextTokens).
	// Past it the loop cuts the conversation once: older observations
	// keep their header and lose their page text, older screenshots go.
	MaxContextTokens int `json:"max_context_tokens,omitempty"`
}

// ErrLimits is wrapped by every error of Limits.Validate.
var ErrLimits = errors.New("agent: invalid limits")

// Validate reports the first field that cannot be a bound: a negative
// count, a negative human timeout, an unknown timeout policy. The error
// wraps ErrLimits and names the field.
func (l Limits) Validate() error {
	switch {
	case l.MaxIterations < 0:
		return fmt.Errorf("%w: MaxIterations is %d; give at least 1, or 0 for the default %d", ErrLimits, l.MaxIterations, DefaultMaxIterations)
	case l.MaxIterationTimeouts < 0:
		return fmt.Errorf("%w: MaxIterationTimeouts is %d; give at least 1, or 0 for the default %d", ErrLimits, l.MaxIterationTimeouts, DefaultMaxIterationTimeouts)
	case l.MaxContextTokens < 0:
		return fmt.Errorf("%w: MaxContextTokens is %d; give at least 1, or 0 for the default %d", ErrLimits, l.MaxContextTokens, DefaultMaxContextTokens)
	case l.HumanTimeout < 0:
		return fmt.Errorf("%w: HumanTimeout is %s; a wait for a person needs a bound: give a positive duration, or 0 for the default %s", ErrLimits, l.HumanTimeout, DefaultHumanTimeout)
	}
	switch l.TimeoutPolicy {
	case "", PolicyFatal, PolicyRecover:
	default:
		return fmt.Errorf("%w: TimeoutPolicy %q is not %q or %q", ErrLimits, l.TimeoutPolicy, PolicyFatal, PolicyRecover)
	}
	return nil
}

// Effective returns the limits in force: every zero field replaced by its
// default. A negative timeout stays negative (none), so that the result
// means the same given back to WithLimits.
func (l Limits) Effective() Limits {
	n := func(v, def int) int { return cmp.Or(v, def) }
	d := func(v, def time.Duration) time.Duration { return cmp.Or(v, def) }
	return Limits{
		MaxIterations:        n(l.MaxIterations, DefaultMaxIterations),
		IterationTimeout:     d(l.IterationTimeout, DefaultIterationTimeout),
		TaskTimeout:          d(l.TaskTimeout, -1),
		StartTimeout:         d(l.StartTimeout, DefaultStartTimeout),
		OperationTimeout:     d(l.OperationTimeout, DefaultOperationTimeout),
		HumanTimeout:         d(l.HumanTimeout, DefaultHumanTimeout),
		TimeoutPolicy:        cmp.Or(l.TimeoutPolicy, PolicyFatal),
		MaxIterationTimeouts: n(l.MaxIterationTimeouts, DefaultMaxIterationTimeouts),
		MaxContextTokens:     n(l.MaxContextTokens, DefaultMaxContextTokens),
	}
}

// inForce is Effective with every negative timeout made 0, the loop's
// "none".
func (l Limits) inForce() Limits {
	e := l.Effective()
	for _, t := range []*time.Duration{&e.IterationTimeout, &e.TaskTimeout, &e.StartTimeout, &e.OperationTimeout} {
		*t = max(*t, 0)
	}
	return e
}

// over returns l with every non-zero field of o in place of its own.
func (l Limits) over(o Limits) Limits {
	return Limits{
		MaxIterations:        cmp.Or(o.MaxIterations, l.MaxIterations),
		IterationTimeout:     cmp.Or(o.IterationTimeout, l.IterationTimeout),
		TaskTimeout:          cmp.Or(o.TaskTimeout, l.TaskTimeout),
		StartTimeout:         cmp.Or(o.StartTimeout, l.StartTimeout),
		OperationTimeout:     cmp.Or(o.OperationTimeout, l.OperationTimeout),
		HumanTimeout:         cmp.Or(o.HumanTimeout, l.HumanTimeout),
		TimeoutPolicy:        cmp.Or(o.TimeoutPolicy, l.TimeoutPolicy),
		MaxIterationTimeouts: cmp.Or(o.MaxIterationTimeouts, l.MaxIterationTimeouts),
		MaxContextTokens:     cmp.Or(o.MaxContextTokens, l.MaxContextTokens),
	}
}

// Bound is the longest a run under these limits may last: the task
// timeout when there is one, else every iteration at its bound after the
// start navigation; 0 when nothing bounds the run (no task timeout and no
// iteration timeout). It is what an outer layer (a fleet's activity, a
// caller's deadline) adds its own margin to.
func (l Limits) Bound() time.Duration {
	e := l.inForce()
	if e.TaskTimeout > 0 {
		return e.TaskTimeout
	}
	if e.IterationTimeout == 0 {
		return 0
	}
	return e.StartTimeout + time.Duration(e.MaxIterations)*e.IterationTimeout
}

// WithLimits sets the bounds of the run that l gives: each non-zero field
// overrides what earlier options set, so that layers add up (a task
// file's limits over the command line's). A later option of one bound
// (WithIterationTimeout, …) overrides its field in turn.
func WithLimits(l Limits) Option {
	return func(c *config) { c.limits = c.limits.over(l) }
}
