package agent

import (
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/webagent/webagent/watchdog"
)

// Defaults for the bounds. The iteration timeout is high enough to fire only
// on a genuine hang (a slow local model may take a minute to answer).
const (
	DefaultMaxIterations    = 50
	DefaultIterationTimeout = 300 * time.Second
	DefaultStartTimeout     = 60 * time.Second
)

// Option configures an Agent.
type Option func(*config)

type config struct {
	maxIterations    int
	iterationTimeout time.Duration
	taskTimeout      time.Duration
	startTimeout     time.Duration
	logger           zerolog.Logger
	observer         Observer
}

func defaults() config {
	return config{
		maxIterations:    DefaultMaxIterations,
		iterationTimeout: DefaultIterationTimeout,
		startTimeout:     DefaultStartTimeout,
		logger:           zerolog.Nop(),
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
	} {
		if err := watchdog.CheckBudget(b.name, b.d); err != nil {
			return fmt.Errorf("agent: %w", err)
		}
	}
	return nil
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

// WithLogger sets a logger for the loop's diagnostics (silent by default).
// Secrets and typed text are never logged.
func WithLogger(l zerolog.Logger) Option { return func(c *config) { c.logger = l } }

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
