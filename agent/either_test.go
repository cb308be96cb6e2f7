package agent_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
)

// EitherHuman asks both people and takes the first answer: the other's
// question ends; one who cannot answer (an error) leaves it to the other;
// one who cannot confirm is asked the confirmation's question.
func TestEitherHuman(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	slowEnded := make(chan error, 1)
	slow := agent.HumanFunc(func(ctx context.Context, _ string) (string, error) {
		<-ctx.Done()
		slowEnded <- ctx.Err()
		return "", ctx.Err()
	})
	quick := agent.HumanFunc(func(context.Context, string) (string, error) { return "blue", nil })
	if got, err := agent.EitherHuman(slow, quick).Ask(ctx, "which colour?"); err != nil || got != "blue" {
		t.Errorf("Ask = %q, %v; want the quick one's answer", got, err)
	}
	select {
	case err := <-slowEnded:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the other question ended with %v", err)
		}
	case <-ctx.Done():
		t.Fatal("the other question did not end")
	}

	cannot := agent.HumanFunc(func(context.Context, string) (string, error) { return "", errors.New("no terminal") })
	if got, err := agent.EitherHuman(cannot, quick).Ask(ctx, "which colour?"); err != nil || got != "blue" {
		t.Errorf("Ask with one who cannot answer = %q, %v", got, err)
	}
	if _, err := agent.EitherHuman(cannot, cannot).Ask(ctx, "which colour?"); err == nil {
		t.Error("Ask with no one who can answer did not fail")
	}

	yes := agent.HumanFunc(func(context.Context, string) (string, error) { return "yes", nil })
	cf, ok := agent.EitherHuman(slow, yes).(agent.Confirmer)
	if !ok {
		t.Fatal("EitherHuman of two people is no Confirmer")
	}
	if allowed, err := cf.Confirm(ctx, agent.Confirmation{Question: "Place the order?"}); err != nil || !allowed {
		t.Errorf("Confirm = %v, %v; want the yes asked as a question", allowed, err)
	}
	<-slowEnded
	if got, err := agent.EitherHuman(nil, quick).Ask(ctx, "which colour?"); err != nil || got != "blue" {
		t.Errorf("EitherHuman(nil, h).Ask = %q, %v; want h's answer", got, err)
	}
}
