package agent

import (
	"cmp"
	"fmt"
	"log/slog"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/policy"
	"github.com/webagent/webagent/script"
	"github.com/webagent/webagent/secret"
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
	// DefaultMaxContextTokens is the conversation's size past which the
	// loop cuts older observations to their header: below the context
	// window of the models webagent is used with (128k and more), with
	// room for the tools and the reply.
	DefaultMaxContextTokens = 64000
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
	limits         Limits // as given: WithLimits and the options of one bound
	lim            Limits // in effect: limits.effective(), set by validate
	optErr         error  // the first option of one bound out of range
	maxConsecutive int
	maxErrors      int
	human          Human
	vision         bool
	visionMarks    bool
	logger         *slog.Logger
	observers      []Observer
	control        Control // WithControl
	tracer         Tracer
	nav            contract.NavigationPolicy // Allowed, Blocked, AllowPrivateNetwork
	custom         []CustomTool              // WithTools
	inbox          Mailbox                   // WithInbox
	inboxMaskers   []*secret.Masker
	customTools    []*tool        // custom, checked by validate
	extraPrompt    string         // WithSystemPrompt
	policy         *policy.Policy // WithPolicy
	deriver        PolicyDeriver  // WithPolicyDeriver
	confirmer      Confirmer      // WithConfirmer
	recording      Recording      // WithRecording
	maxCost        float64        // WithMaxCost
	cost           CostFunc       // WithMaxCost
	noScripts      bool           // WithScripts(false)
	scriptLimits   script.Limits  // WithScriptLimits
	savedSignIns   []string       // WithSavedSignIns
	native         string         // WithNativeTools: contract.NativeComputer, NativeBrowser or ""
}

func defaults() config {
	return config{
		maxConsecutive: DefaultMaxConsecutiveErrors,
		maxErrors:      DefaultMaxErrors,
		logger:         slog.New(slog.DiscardHandler),
	}
}

func (c *config) validate() error {
	if c.optErr != nil {
		return c.optErr
	}
	if err := c.limits.Validate(); err != nil {
		return err
	}
	c.lim = c.limits.inForce()
	for _, b := range []struct {
		name string
		d    time.Duration
	}{
		{"iteration timeout", c.lim.IterationTimeout},
		{"task timeout", c.lim.TaskTimeout},
		{"start timeout", c.lim.StartTimeout},
		{"operation timeout", c.lim.OperationTimeout},
		{"human timeout", c.lim.HumanTimeout},
	} {
		if err := watchdog.CheckBudget(b.name, b.d); err != nil {
			return fmt.Errorf("agent: %w", err)
		}
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
	if asks && c.lim.IterationTimeout > 0 && c.lim.HumanTimeout >= c.lim.IterationTimeout {
		return fmt.Errorf("agent: the human timeout (%s) must be below the iteration timeout (%s), which bounds it", c.lim.HumanTimeout, c.lim.IterationTimeout)
	}
	if c.human != nil && c.lim.OperationTimeout > 0 && c.lim.HumanTimeout >= c.lim.OperationTimeout {
		return fmt.Errorf("agent: the human timeout (%s) must be below the operation timeout (%s), the backstop above every tool", c.lim.HumanTimeout, c.lim.OperationTimeout)
	}
	return nil
}

// warnings returns configuration that is valid but probably not meant.
func (c *config) warnings() []string {
	var w []string
	if c.lim.OperationTimeout > 0 && c.lim.OperationTimeout <= longestToolBudget() {
		w = append(w, fmt.Sprintf("the operation timeout (%s) is at or below the longest tool budget (%s): "+
			"the backstop will cut legitimate operations short", c.lim.OperationTimeout, longestToolBudget()))
	}
	if c.lim.IterationTimeout > 0 && c.lim.OperationTimeout > 0 && c.lim.IterationTimeout <= c.lim.OperationTimeout {
		w = append(w, fmt.Sprintf("the iteration timeout (%s) is at or below the operation timeout (%s): "+
			"a slow tool ends the iteration before the model can be told", c.lim.IterationTimeout, c.lim.OperationTimeout))
	}
	return w
}

// timeout returns an option that sets one timeout of the limits: 0 means
// none there (Limits' negative), and a negative value is an error.
func timeout(name string, d time.Duration, field func(*Limits) *time.Duration) Option {
	return func(c *config) {
		switch {
		case d < 0:
			c.optErr = cmp.Or(c.optErr, fmt.Errorf("%w: the %s is %s; give a positive duration, or 0 for none", ErrLimits, name, d))
		case d == 0:
			*field(&c.limits) = -1
		default:
			*field(&c.limits) = d
		}
	}
}

// WithMaxIterations caps the number of observe-decide-act iterations
// (default 50).
func WithMaxIterations(n int) Option {
	return func(c *config) {
		if n < 1 {
			c.optErr = cmp.Or(c.optErr, fmt.Errorf("%w: max iterations is %d; it must be at least 1", ErrLimits, n))
		}
		c.limits.MaxIterations = n
	}
}

// WithIterationTimeout bounds each iteration: snapshot, model call and
// actions together (default 300s). 0 disables the bound.
func WithIterationTimeout(d time.Duration) Option {
	return timeout("iteration timeout", d, func(l *Limits) *time.Duration { return &l.IterationTimeout })
}

// WithTaskTimeout bounds the whole task, start navigation included. 0 (the
// default) means no task deadline beyond the caller's context.
func WithTaskTimeout(d time.Duration) Option {
	return timeout("task timeout", d, func(l *Limits) *time.Duration { return &l.TaskTimeout })
}

// WithStartTimeout bounds the navigation to the task's start URL, which
// runs before the first iteration (default 60s). 0 disables the bound.
func WithStartTimeout(d time.Duration) Option {
	return timeout("start timeout", d, func(l *Limits) *time.Duration { return &l.StartTimeout })
}

// WithOperationTimeout sets the dispatch backstop: one bound above every
// tool's own budget (default 120s). When it fires, the model receives a
// retryable OPERATION_TIMEOUT result carrying the budget, and the task goes
// on. 0 disables it; a value at or below the longest tool budget logs a
// warning when the agent is built.
func WithOperationTimeout(d time.Duration) Option {
	return timeout("operation timeout", d, func(l *Limits) *time.Duration { return &l.OperationTimeout })
}

// WithIterationTimeoutPolicy sets what an iteration timeout does: PolicyFatal
// (the default) ends the task with ITERATION_TIMEOUT; PolicyRecover recovers
// the page and goes on, until maxTimeouts iterations have timed out.
func WithIterationTimeoutPolicy(p TimeoutPolicy, maxTimeouts int) Option {
	return func(c *config) {
		if maxTimeouts < 1 {
			c.optErr = cmp.Or(c.optErr, fmt.Errorf("%w: max iteration timeouts is %d; it must be at least 1", ErrLimits, maxTimeouts))
		}
		c.limits.TimeoutPolicy, c.limits.MaxIterationTimeouts = p, maxTimeouts
	}
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
	return func(c *config) { c.human, c.limits.HumanTimeout = h, timeout }
}

// WithHumanTimeout bounds each wait for a person (an ask_human question,
// a confirmation of the policy) without setting a Human (default 60s,
// below the iteration timeout).
func WithHumanTimeout(d time.Duration) Option { return func(c *config) { c.limits.HumanTimeout = d } }

// WithVision offers the model a screenshot tool: the page as an image, for
// models that accept images. The browser must implement Screenshotter.
func WithVision(on bool) Option { return func(c *config) { c.vision = on } }

// WithVisionMarks sends with each observation a screenshot of the viewport
// with every ref in view outlined and labelled (set-of-mark), so that a
// vision model may act by ref or at a point (mouse, x and y in the
// screenshot's CSS pixels). It implies WithVision. The browser must
// implement MarkedScreenshotter.
func WithVisionMarks(on bool) Option {
	return func(c *config) {
		c.visionMarks = on
		c.vision = c.vision || on
	}
}

// WithNavigation confines the browser to where p says pages may be opened:
// the allowed and blocked places (DomainPattern syntax: example.com,
// *.example.com, http://localhost:3000) and the private network guard.
// Navigations anywhere else are refused and the model is told why. The
// loop adds the start URL's host to p.Trusted. A policy that confines
// needs a browser that implements Confiner.
//
// Several WithNavigation options add up: their patterns are joined, and
// any of them may lift the private network guard (a task file's domains
// add to the command line's).
func WithNavigation(p contract.NavigationPolicy) Option {
	return func(c *config) {
		c.nav.Allowed = append(c.nav.Allowed, p.Allowed...)
		c.nav.Blocked = append(c.nav.Blocked, p.Blocked...)
		c.nav.Trusted = append(c.nav.Trusted, p.Trusted...)
		c.nav.AllowPrivateNetwork = c.nav.AllowPrivateNetwork || p.AllowPrivateNetwork
	}
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
func WithObserver(o Observer) Option {
	return func(c *config) {
		if o != nil {
			c.observers = append(c.observers, o)
		}
	}
}

// Observer receives each step as soon as it ends. It is called from the
// goroutine running Agent.Run and must return quickly.
type Observer interface {
	OnStep(Step)
}

// IterationObserver is an Observer that is also told when each iteration
// starts and when its bound falls (zero when it has none): a live view
// shows the watchdog's time left.
type IterationObserver interface {
	Observer
	OnIteration(iteration int, deadline time.Time)
}

// ObserverFunc adapts a function to the Observer interface.
type ObserverFunc func(Step)

// OnStep calls f(s).
func (f ObserverFunc) OnStep(s Step) { f(s) }

// toolset is the tools one run offers.
func (c *config) toolset() *toolset {
	ts := newToolset(c.human != nil, c.lim.HumanTimeout, c.vision)
	if c.noScripts {
		ts.without(ToolScript)
	}
	if c.visionMarks {
		ts.typeAtFocus()
	}
	if c.inbox != nil {
		ts.add(readEmailTool(c.inbox, c.inboxMaskers))
	}
	return ts
}
