package agent_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
)

func TestLimits(t *testing.T) {
	t.Parallel()
	if err := (agent.Limits{}).Validate(); err != nil {
		t.Errorf("zero limits (every default) rejected: %v", err)
	}
	for _, bad := range []agent.Limits{
		{MaxIterations: -1},
		{MaxIterationTimeouts: -2},
		{HumanTimeout: -time.Second},
		{TimeoutPolicy: "retry"},
	} {
		if err := bad.Validate(); !errors.Is(err, agent.ErrLimits) {
			t.Errorf("%+v: Validate = %v, want ErrLimits", bad, err)
		}
	}
	e := agent.Limits{IterationTimeout: -1, TaskTimeout: time.Minute}.Effective()
	want := agent.Limits{
		MaxIterations: agent.DefaultMaxIterations, IterationTimeout: -1, TaskTimeout: time.Minute,
		StartTimeout: agent.DefaultStartTimeout, OperationTimeout: agent.DefaultOperationTimeout,
		HumanTimeout: agent.DefaultHumanTimeout, TimeoutPolicy: agent.PolicyFatal,
		MaxIterationTimeouts: agent.DefaultMaxIterationTimeouts, MaxContextTokens: agent.DefaultMaxContextTokens,
	}
	if e != want {
		t.Errorf("Effective = %+v, want %+v", e, want)
	}
	if e.Effective() != e {
		t.Error("Effective is not idempotent")
	}
	for _, c := range []struct {
		l    agent.Limits
		want time.Duration
	}{
		{agent.Limits{TaskTimeout: 5 * time.Minute}, 5 * time.Minute},
		{agent.Limits{MaxIterations: 4, IterationTimeout: 10 * time.Second, StartTimeout: 20 * time.Second}, time.Minute},
		{agent.Limits{IterationTimeout: -1}, 0},
		{agent.Limits{}, agent.DefaultStartTimeout + agent.DefaultMaxIterations*agent.DefaultIterationTimeout},
	} {
		if got := c.l.Bound(); got != c.want {
			t.Errorf("%+v: Bound = %s, want %s", c.l, got, c.want)
		}
	}
}

// The limits of a run are one value; its zero fields take the defaults.
func ExampleLimits() {
	l := agent.Limits{MaxIterations: 10, IterationTimeout: 30 * time.Second}
	if err := l.Validate(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(l.Bound(), l.Effective().OperationTimeout)
	// A loop would take them as agent.New(b, m, agent.WithLimits(l)).
	// Output: 6m0s 2m0s
}
