package agent

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/policy"
	"github.com/webagent/webagent/watchdog"
)

// Defaults for the bounds. The iteration timeout is high enough to fire only
// on a genuine hang (a slow local model may take a minute to answer).
const (
	DefaultMaxIterations    = 50
	DefaultIterationTimeout = 300 * time.Second
	DefaultStartTimeout     = 60 * time.Second
	// DefaultOperationTimeout is the dispatch backstop above every tool's
	// own budget.
	DefaultOperationTimeout = 120 * time.Second
	// DefaultHumanTimeout bounds one wait for a person's answer.
	DefaultHumanTimeout = 60 * time.Second
	// DefaultMaxConsecutiveErrors and DefaultMaxErrors are the error budget.
	DefaultMaxConsecutiveErrors = 5
	DefaultMaxErrors            = 15
	// DefaultMaxIterationTimeouts is how many timed-out iterations the
	// recover policy absorbs before the task ends.
	DefaultMaxIterationTimeouts = 3
)

// TimeoutPolicy says what an iteration timeout does to the task.
type TimeoutPolicy string

// The iteration timeout policies.
const (
	// PolicyFatal ends the task with ITERATION_TIMEOUT (the default).
	PolicyFatal TimeoutPolicy = "fatal"
	// PolicyRecover abandons the iteration, recovers the page, tells the
	// model the step timed out and goes on, up to a limit.
	PolicyRecover TimeoutPolicy = "recover"
)

// Option configures an Agent.
type Option func(*config)

type config struct {
	maxIterations    int
	iterationTimeout time.Duration
	taskTimeout      time.Duration
	startTimeout     time.Duration
	operationTimeout time.Duration
	timeoutPolicy    TimeoutPolicy
	maxTimeouts      int
	maxConsecutive   int
	maxErrors        int
	human            Human
	humanTimeout     time.Duration
	vision           bool
	logger           *slog.Logger
	observer         Observer
	tracer           Tracer
	nav              contract.NavigationPolicy // Allowed, Blocked, AllowPrivateNetwork
	custom           []CustomTool              // WithTools
	customTools      []*tool                   // custom, checked by validate
	extraPrompt      string                    // WithSystemPrompt
	policy           *policy.Policy            // WithPolicy
	confirmer        Confirmer                 // WithConfirmer
	recording        Recording                 // WithRecording
	maxCost          float64                   // WithMaxCost
	cost             CostFunc                  // WithMaxCost
}

func defaults() config {
	return config{
		maxIterations:    DefaultMaxIterations,
		iterationTimeout: DefaultIterationTimeout,
		startTimeout:     DefaultStartTimeout,
		operationTimeout: DefaultOperationTimeout,
		timeoutPolicy:    PolicyFatal,
		maxTimeouts:      DefaultMaxIterationTimeouts,
		maxConsecutive:   DefaultMaxConsecutiveErrors,
		maxErrors:        DefaultMaxErrors,
		humanTimeout:     DefaultHumanTimeout,
		logger:           slog.New(slog.DiscardHandler),
	}
}

func (c *config) validate() error {
	if c.maxIterations < 1 {
		return fmt.Errorf("agent: max iterations is %d; it must be at least 1", c.maxIterations)
	}
	for _, b := range []struct {
		name string
		d    time.Duration
	}{
		{"iteration timeout", c.iterationTimeout},
		{"task timeout", c.taskTimeout},
		{"start timeout", c.startTimeout},
		{"operation timeout", c.operationTimeout},
		{"human timeout", c.humanTimeout},
	} {
		if err := watchdog.CheckBudget(b.name, b.d); err != nil {
			return fmt.Errorf("agent: %w", err)
		}
	}
	switch c.timeoutPolicy {
	case PolicyFatal, PolicyRecover:
	default:
		return fmt.Errorf("agent: iteration timeout policy %q is not %q or %q", c.timeoutPolicy, PolicyFatal, PolicyRecover)
	}
	if c.maxTimeouts < 1 {
		return fmt.Errorf("agent: max iteration timeouts is %d; it must be at least 1", c.maxTimeouts)
	}
	var err error
	if c.customTools, err = c.buildCustomTools(); err != nil {
		return err
	}
	if c.maxCost < 0 || (c.maxCost > 0 && c.cost == nil) {
		return fmt.Errorf("agent: a cost limit needs a positive limit and a cost function (got %g)", c.maxCost)
	}
	if c.maxConsecutive < 1 || c.maxErrors < 1 {
		return fmt.Errorf("agent: the error budget (%d in a row, %d in all) must be at least 1 each", c.maxConsecutive, c.maxErrors)
	}
	asks := c.human != nil || c.policy.Asks()
	if asks && c.iterationTimeout > 0 && c.humanTimeout >= c.iterationTimeout {
		return fmt.Errorf("agent: the human timeout (%s) must be below the iteration timeout (%s), which bounds it", c.humanTimeout, c.iterationTimeout)
	}
	if c.human != nil && c.operationTimeout > 0 && c.humanTimeout >= c.operationTimeout {
		return fmt.Errorf("agent: the human timeout (%s) must be below the operation timeout (%s), the backstop above every tool", c.humanTimeout, c.operationTimeout)
	}
	return nil
}

// warnings returns configuration that is valid but probably not meant.
func (c *config) warnings() []string {
	var w []string
	if c.operationTimeout > 0 && c.operationTimeout <= longestToolBudget() {
		w = append(w, fmt.Sprintf("the operation timeout (%s) is at or below the longest tool budget (%s): "+
			"the backstop will cut legitimate operations short", c.operationTimeout, longestToolBudget()))
	}
	if c.iterationTimeout > 0 && c.operationTimeout > 0 && c.iterationTimeout <= c.operationTimeout {
		w = append(w, fmt.Sprintf("the iteration timeout (%s) is at or below the operation timeout (%s): "+
			"a slow tool ends the iteration before the model can be told", c.iterationTimeout, c.operationTimeout))
	}
	return w
}

// WithMaxIterations caps the number of observe-decide-act iterations
// (default 50).
func WithMaxIterations(n int) Option { return func(c *config) { c.maxIterations = n } }

// WithIterationTimeout bounds each iteration: snapshot, model call and
// actions together (default 300s). 0 disables the bound.
func WithIterationTimeout(d time.Duration) Option {
	return func(c *config) { c.iterationTimeout = d }
}

// WithTaskTimeout bounds the whole task, start navigation included. 0 (the
// default) means no task deadline beyond the caller's context.
func WithTaskTimeout(d time.Duration) Option { return func(c *config) { c.taskTimeout = d } }

// WithStartTimeout bounds the navigation to the task's start URL, which
// runs before the first iteration (default 60s). 0 disables the bound.
func WithStartTimeout(d time.Duration) Option { return func(c *config) { c.startTimeout = d } }

// WithOperationTimeout sets the dispatch backstop: one bound above every
// tool's own budget (default 120s). When it fires, the model receives a
// retryable OPERATION_TIMEOUT result carrying the budget, and the task goes
// on. 0 disables it; a value at or below the longest tool budget logs a
// warning when the agent is built.
func WithOperationTimeout(d time.Duration) Option {
	return func(c *config) { c.operationTimeout = d }
}

// WithIterationTimeoutPolicy sets what an iteration timeout does: PolicyFatal
// (the default) ends the task with ITERATION_TIMEOUT; PolicyRecover recovers
// the page and goes on, until maxTimeouts iterations have timed out.
func WithIterationTimeoutPolicy(p TimeoutPolicy, maxTimeouts int) Option {
	return func(c *config) { c.timeoutPolicy, c.maxTimeouts = p, maxTimeouts }
}

// WithErrorBudget ends the task with MAX_ERRORS when more than consecutive
// tool calls in a row, or more than total in all, fail (defaults 5 and 15).
func WithErrorBudget(consecutive, total int) Option {
	return func(c *config) { c.maxConsecutive, c.maxErrors = consecutive, total }
}

// WithHuman offers the model an ask_human tool answered by h. Each wait is
// bounded by timeout (default 60s, below the iteration timeout); when it runs
// out the model is told the question is pending, and a later answer is
// delivered at the next iteration.
func WithHuman(h Human, timeout time.Duration) Option {
	return func(c *config) { c.human, c.humanTimeout = h, timeout }
}

// WithHumanTimeout bounds each wait for a person (an ask_human question,
// a confirmation of the policy) without setting a Human (default 60s,
// below the iteration timeout).
func WithHumanTimeout(d time.Duration) Option { return func(c *config) { c.humanTimeout = d } }

// WithVision offers the model a screenshot tool: the page as an image, for
// models that accept images. The browser must implement Screenshotter.
func WithVision(on bool) Option { return func(c *config) { c.vision = on } }

// WithAllowedDomains confines the browser to the places the patterns
// match (DomainPattern syntax: example.com, *.example.com,
// http://localhost:3000); navigations anywhere else are refused and the
// model is told why. The browser must implement Confiner.
func WithAllowedDomains(p ...contract.DomainPattern) Option {
	return func(c *config) { c.nav.Allowed = append(c.nav.Allowed, p...) }
}

// WithBlockedDomains refuses navigations to the places the patterns match,
// even when they are allowed.
func WithBlockedDomains(p ...contract.DomainPattern) Option {
	return func(c *config) { c.nav.Blocked = append(c.nav.Blocked, p...) }
}

// WithPrivateNetwork lifts (true) the private network guard: by default,
// hosts on loopback, private, link-local or metadata addresses are reachable
// only when the user named them (the start URL's host, an allowed domain).
func WithPrivateNetwork(allow bool) Option {
	return func(c *config) { c.nav.AllowPrivateNetwork = allow }
}

// WithLogger sets a logger for the loop's diagnostics (silent by default).
// Secrets and typed text are never logged.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.logger = l
		}
	}
}

// CostFunc returns what a usage costs, in the unit of WithMaxCost's limit
// (package price's Table.Cost gives US dollars).
type CostFunc func(contract.Usage) float64

// WithMaxCost ends the task with COST_LIMIT as soon as its running cost,
// cost of the usage of every model reply so far, passes limit. It is
// checked when each reply arrives: the reply that passes the limit is
// not acted on (its calls are recorded as not run). A limit of 0 sets no
// limit.
func WithMaxCost(limit float64, cost CostFunc) Option {
	return func(c *config) { c.maxCost, c.cost = limit, cost }
}

// WithObserver sets a hook called after every step.
func WithObserver(o Observer) Option { return func(c *config) { c.observer = o } }

// Observer receives each step as soon as it ends. It is called from the
// goroutine running Agent.Run and must return quickly.
type Observer interface {
	OnStep(Step)
}

// ObserverFunc adapts a function to the Observer interface.
type ObserverFunc func(Step)

// OnStep calls f(s).
func (f ObserverFunc) OnStep(s Step) { f(s) }
