package judge

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/watchdog"
)

// Model is what the judge asks: one chat completion. Package llm's
// Client is one; so is any contract.Model.
type Model interface {
	Complete(ctx context.Context, req contract.Request) (contract.Reply, error)
}

// Defaults of Config.
const (
	DefaultTimeout   = 5 * time.Minute
	DefaultThreshold = 3  // WebJudge's score threshold
	DefaultMaxShots  = 50 // WebJudge's MAX_IMAGE
	DefaultParallel  = 4
)

// Config configures a Judge.
type Config struct {
	// Model answers the judge's questions. Required.
	Model Model
	// ModelName is recorded in each Verdict.
	ModelName string
	// Vision shows the model each step's screenshot; without it the model
	// reads each step's page text instead (for models that take no
	// images).
	Vision bool
	// Timeout bounds the judging of one trajectory, every call included;
	// DefaultTimeout if 0. Past it the trajectory is Unscored.
	Timeout time.Duration
	// Threshold is the lowest score (1 to 5) of a step shown in the
	// verdict; DefaultThreshold if 0.
	Threshold int
	// MaxShots bounds the steps shown in the verdict; DefaultMaxShots if 0.
	MaxShots int
	// Parallel is how many steps are scored at once; DefaultParallel if 0.
	Parallel int
	// Cost gives the money of the judge's usage (package price's
	// Table.Cost for the model); nil, or false, records tokens only.
	Cost func(contract.Usage) (float64, bool)
}

// Outcomes of a Verdict.
const (
	Success  = "success"
	Failure  = "failure"
	Unscored = "unscored"
)

// Verdict is the judge's decision on one trajectory and how it came to it.
type Verdict struct {
	// Outcome is Success, Failure or Unscored.
	Outcome string `json:"outcome"`
	// Reasons are the judge's thoughts behind the verdict.
	Reasons string `json:"reasons,omitempty"`
	// Why says why an Unscored trajectory has no verdict.
	Why string `json:"why,omitempty"`
	// KeyPoints are what the task explicitly requires, as the judge read it.
	KeyPoints []string `json:"key_points,omitempty"`
	// Steps are the steps scored, in order; Chosen ones were shown in the
	// verdict.
	Steps []ScoredStep `json:"steps,omitempty"`
	// Model and Vision say who judged, and from what.
	Model  string `json:"model,omitempty"`
	Vision bool   `json:"vision"`
	// Calls, MS and Usage are the judge's model calls, time and tokens;
	// CostUSD their cost when the model has a price.
	Calls   int            `json:"calls"`
	MS      int64          `json:"ms"`
	Usage   contract.Usage `json:"usage"`
	CostUSD *float64       `json:"cost_usd,omitempty"`
	// Findings and Flags are a rubric judging's (Trajectory.Rubric): one
	// finding per item, and the flags. Its Outcome is Success when every
	// item is met, else Failure; code scores the findings (Score).
	Findings []Finding `json:"findings,omitempty"`
	Flags    *Flags    `json:"flags,omitempty"`
}

// Scored reports whether the judge reached a verdict.
func (v *Verdict) Scored() bool { return v != nil && (v.Outcome == Success || v.Outcome == Failure) }

// ScoredStep is one step as the judge scored it.
type ScoredStep struct {
	Iteration int `json:"iteration"`
	// Screenshot is the step's screenshot file, when it had one.
	Screenshot string `json:"screenshot,omitempty"`
	// Score is 1 to 5 (0: the reply held no score); Reason the judge's.
	Score  int    `json:"score"`
	Reason string `json:"reason,omitempty"`
	Chosen bool   `json:"chosen"`
}

// Trajectory is what an agent did for a task, as the judge sees it.
type Trajectory struct {
	Task string
	// URL is where the agent started.
	URL string
	// Answer is the agent's final answer: a claim the judge checks
	// against the evidence, never evidence itself.
	Answer string
	// Ending is how the run ended, e.g. "MAX_ITERATIONS: ...".
	Ending string
	Steps  []Step
	// Rubric, when set, makes the judging a rubric's: findings per item
	// instead of WebJudge's verdict.
	Rubric *Rubric
}

// Step is one step of a trajectory.
type Step struct {
	Iteration int
	// URL is the page the step acted on.
	URL string
	// Actions are what the agent did and what the browser reported, one
	// line each.
	Actions []string
	// Blocked are the requests --read-only stopped in this step: what the
	// page would have sent.
	Blocked []string
	// Page is the page's text as the agent saw it before the step (read
	// without Vision).
	Page string
	// Screenshot is the page after the step (PNG or JPEG), shown with
	// Vision; ScreenshotFile names it for the record.
	Screenshot     []byte
	ScreenshotFile string
}

// Judge judges trajectories. Its methods may be called concurrently.
type Judge struct {
	cfg Config
}

// New returns a Judge, or an error when the configuration cannot work.
func New(cfg Config) (*Judge, error) {
	if cfg.Model == nil {
		return nil, errors.New("judge: a model is required")
	}
	if cfg.Timeout < 0 || cfg.Threshold < 0 || cfg.Threshold > 5 || cfg.MaxShots < 0 || cfg.Parallel < 0 {
		return nil, fmt.Errorf("judge: timeout %s, threshold %d, max shots %d and parallel %d must not be negative (threshold at most 5)",
			cfg.Timeout, cfg.Threshold, cfg.MaxShots, cfg.Parallel)
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Threshold == 0 {
		cfg.Threshold = DefaultThreshold
	}
	if cfg.MaxShots == 0 {
		cfg.MaxShots = DefaultMaxShots
	}
	if cfg.Parallel == 0 {
		cfg.Parallel = DefaultParallel
	}
	return &Judge{cfg: cfg}, nil
}

// Judge decides whether the trajectory did its task. It always returns a
// verdict, Unscored when the model failed or the judge's timeout passed
// (it returns then, whether or not the model answers); it returns at once
// Unscored when ctx ends.
func (j *Judge) Judge(ctx context.Context, t Trajectory) Verdict {
	start := time.Now()
	s := &session{j: j, t: t}
	v, err := watchdog.Run(ctx, "judging", j.cfg.Timeout, func(ctx context.Context) (Verdict, error) {
		if t.Rubric != nil {
			return s.judgeRubric(ctx)
		}
		return s.judge(ctx)
	})
	if err != nil {
		v = s.partial()
		v.Outcome, v.Why = Unscored, unscoredWhy(ctx, err, j.cfg.Timeout)
	}
	v.Model, v.Vision, v.MS = j.cfg.ModelName, j.cfg.Vision, time.Since(start).Milliseconds()
	v.Calls, v.Usage = s.spent()
	if j.cfg.Cost != nil {
		if c, ok := j.cfg.Cost(v.Usage); ok {
			v.CostUSD = &c
		}
	}
	return v
}

// unscoredWhy says why judging ended without a verdict.
func unscoredWhy(ctx context.Context, err error, bound time.Duration) string {
	switch {
	case ctx.Err() != nil:
		return "the judging was canceled"
	case errors.Is(err, watchdog.ErrTimeout):
		return fmt.Sprintf("the judge did not decide within its timeout of %s", bound)
	}
	return err.Error()
}

// session is the judging of one trajectory: what it learnt so far and
// what it spent.
type session struct {
	j *Judge
	t Trajectory

	mu     sync.Mutex
	calls  int
	usage  contract.Usage
	points []string
	steps  []ScoredStep
}

func (s *session) spent() (int, contract.Usage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls, s.usage
}

// partial is what a judging cut short had learnt.
func (s *session) partial() Verdict {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Verdict{KeyPoints: append([]string(nil), s.points...), Steps: append([]ScoredStep(nil), s.steps...)}
}

// ask sends one request and counts it.
func (s *session) ask(ctx context.Context, what string, msgs []contract.Message) (string, error) {
	reply, err := s.complete(ctx, what, contract.Request{Messages: msgs})
	return reply.Content, err
}

// complete sends one request and counts it.
func (s *session) complete(ctx context.Context, what string, req contract.Request) (contract.Reply, error) {
	reply, err := s.j.cfg.Model.Complete(ctx, req)
	s.mu.Lock()
	s.calls++
	s.usage = s.usage.Add(reply.Usage)
	s.mu.Unlock()
	if err != nil {
		return contract.Reply{}, fmt.Errorf("the judge model failed while %s: %w", what, err)
	}
	return reply, nil
}

// judge runs the three steps of WebJudge.
func (s *session) judge(ctx context.Context) (Verdict, error) {
	text, err := s.ask(ctx, "listing the key points", keyPointsMessages(s.t.Task))
	if err != nil {
		return Verdict{}, err
	}
	points := parseKeyPoints(text)
	if len(points) == 0 {
		return Verdict{}, fmt.Errorf("the judge listed no key points: %q", clip(oneLine(text), 200))
	}
	s.mu.Lock()
	s.points = points
	s.mu.Unlock()
	steps, err := s.scoreSteps(ctx, points)
	if err != nil {
		return Verdict{}, err
	}
	text, err = s.ask(ctx, "deciding", s.verdictMessages(points, steps))
	if err != nil {
		return Verdict{}, err
	}
	outcome, reasons, ok := parseVerdict(text)
	if !ok {
		return Verdict{}, fmt.Errorf("the judge's answer has no verdict (success or failure after \"Status:\"): %q", clip(oneLine(text), 200))
	}
	return Verdict{Outcome: outcome, Reasons: reasons, KeyPoints: points, Steps: steps}, nil
}

// scoreSteps scores every step that has something to show, Parallel at
// a time, and marks the chosen ones.
func (s *session) scoreSteps(ctx context.Context, points []string) ([]ScoredStep, error) {
	var idx []int
	for i, st := range s.t.Steps {
		if s.shows(st) {
			idx = append(idx, i)
		}
	}
	scored := make([]ScoredStep, len(idx))
	errs := make([]error, len(idx))
	sem := make(chan struct{}, s.j.cfg.Parallel)
	var wg sync.WaitGroup
	for n, i := range idx {
		st := s.t.Steps[i]
		wg.Go(func() {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				errs[n] = ctx.Err()
				return
			}
			defer func() { <-sem }()
			text, err := s.ask(ctx, fmt.Sprintf("scoring step %d", st.Iteration), s.stepMessages(points, st))
			score, reason := parseScore(text)
			scored[n], errs[n] = ScoredStep{Iteration: st.Iteration, Screenshot: st.ScreenshotFile, Score: score, Reason: reason}, err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, firstError(errs)
	}
	chosen := 0
	for i := range scored {
		if scored[i].Score >= s.j.cfg.Threshold && chosen < s.j.cfg.MaxShots {
			scored[i].Chosen = true
			chosen++
		}
	}
	s.mu.Lock()
	s.steps = scored
	s.mu.Unlock()
	return scored, nil
}

// shows reports whether a step has something for the judge to look at.
func (s *session) shows(st Step) bool {
	if s.j.cfg.Vision {
		return len(st.Screenshot) > 0
	}
	return strings.TrimSpace(st.Page) != ""
}

func firstError(errs []error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
