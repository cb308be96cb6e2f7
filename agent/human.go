package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/webagent/webagent/contract"
)

// Human answers the model's questions (the ask_human tool). Ask must return
// once ctx is done. The loop bounds each wait itself; Ask adds no timer.
type Human interface {
	Ask(ctx context.Context, question string) (string, error)
}

// HumanFunc adapts a function to the Human interface.
type HumanFunc func(ctx context.Context, question string) (string, error)

// Ask calls f(ctx, question).
func (f HumanFunc) Ask(ctx context.Context, question string) (string, error) { return f(ctx, question) }

// asks queues questions to a person. A question whose wait ran out stays
// queued; its answer is delivered at a later iteration.
type asks struct {
	h   Human
	ctx context.Context // the task's: a queued question ends with the task
	wg  sync.WaitGroup

	mu      sync.Mutex
	pending []*question
}

type question struct {
	text   string
	answer chan answer // buffered 1
}

type answer struct {
	text string
	err  error
}

func newAsks(ctx context.Context, h Human) *asks { return &asks{h: h, ctx: ctx} }

// ask starts a question, or joins the same question if it is still queued,
// and waits for its answer until ctx ends (the dispatcher's budget).
func (a *asks) ask(ctx context.Context, text string) (string, error) {
	q := a.start(text)
	select {
	case ans := <-q.answer:
		a.remove(q)
		if ans.err != nil {
			return "", contract.ActionErrorf("the person could not answer: %v", ans.err)
		}
		b, _ := json.Marshal(map[string]string{"status": "answered", "answer": ans.text})
		return string(b), nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (a *asks) start(text string) *question {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, q := range a.pending {
		if q.text == text {
			return q
		}
	}
	q := &question{text: text, answer: make(chan answer, 1)}
	a.pending = append(a.pending, q)
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		s, err := a.h.Ask(a.ctx, text)
		q.answer <- answer{s, err}
	}()
	return q
}

func (a *asks) remove(q *question) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i, p := range a.pending {
		if p == q {
			a.pending = append(a.pending[:i], a.pending[i+1:]...)
			return
		}
	}
}

// delivered returns messages for answers that arrived after their wait ran
// out, and drops those questions from the queue.
func (a *asks) delivered() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []string
	keep := a.pending[:0]
	for _, q := range a.pending {
		select {
		case ans := <-q.answer:
			if ans.err != nil {
				out = append(out, fmt.Sprintf("The person could not answer your earlier question %q: %v", q.text, ans.err))
			} else {
				out = append(out, fmt.Sprintf("The person has now answered your earlier question %q: %s", q.text, ans.text))
			}
		default:
			keep = append(keep, q)
		}
	}
	a.pending = keep
	return out
}

// pendingResult is the ask_human result when the wait ran out.
func pendingResult(question string) string {
	b, _ := json.Marshal(map[string]string{
		"status":  "pending",
		"message": "no answer yet; the question stays queued and the answer will be given to you when it arrives; go on meanwhile if you can",
	})
	return string(b)
}
