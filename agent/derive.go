package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/policy"
	"github.com/webagent/webagent/watchdog"
)

// PolicyDeriver proposes the guardrails of a task from the task alone
// (package autopolicy asks the model): what the run may do, and where.
// Derive must return once ctx is done.
type PolicyDeriver interface {
	Derive(ctx context.Context, task Task) (*DerivedPolicy, error)
}

// DerivedPolicy is a policy drawn from a task.
type DerivedPolicy struct {
	// Policy holds the rules, and in Sites the only sites the task may
	// open.
	Policy *policy.Policy
	// Text is the policy in the policy file's format, as the person saw
	// it; the result and the trace keep it.
	Text string
}

// WithPolicyDeriver draws the run's policy from its task before the first
// action (--policy auto): d's policy is joined after WithPolicy's (whose
// rules come first), and its sites confine the browser where the
// navigation policy allows every site. A task whose policy cannot be
// drawn does not start (AGENT_FAILED, saying why). The derivation is
// bounded by the iteration timeout.
func WithPolicyDeriver(d PolicyDeriver) Option { return func(c *config) { c.deriver = d } }

// derivePolicy draws the run's policy, when a deriver is set.
func (r *run) derivePolicy(ctx context.Context) error {
	d := r.a.cfg.deriver
	if d == nil {
		return nil
	}
	dp, err := watchdog.Run(ctx, "drawing the policy from the task", r.a.cfg.lim.IterationTimeout, func(ctx context.Context) (*DerivedPolicy, error) {
		return d.Derive(ctx, r.task)
	})
	switch {
	case err != nil:
		return fmt.Errorf("no policy could be drawn from the task: %w; write one and pass it with --policy FILE (WithPolicy)", err)
	case dp == nil || dp.Policy == nil:
		return errors.New("no policy could be drawn from the task: the deriver proposed none; pass one with --policy FILE (WithPolicy)")
	}
	r.policy = policy.Join(r.policy, dp.Policy)
	r.res.DerivedPolicy = r.sec.Mask(dp.Text)
	r.a.cfg.logger.Info("policy drawn from the task", "sites", dp.Policy.Sites, "rules", len(dp.Policy.Rules))
	return nil
}

// sitesOf are the domain patterns of a policy's sites, for the browser's
// guard.
func sitesOf(p *policy.Policy) ([]contract.DomainPattern, error) {
	if p == nil || len(p.Sites) == 0 {
		return nil, nil
	}
	var out []contract.DomainPattern
	for _, s := range p.Sites {
		ps, err := contract.ParseDomainPatterns(s)
		if err != nil {
			return nil, fmt.Errorf("the policy's site %q: %w", s, err)
		}
		out = append(out, ps...)
	}
	return out, nil
}
