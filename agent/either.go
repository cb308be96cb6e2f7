package agent

import "context"

// EitherHuman asks a and b at once and takes the first answer: a person
// at a terminal and one in a live view, or an MCP client's user and one in
// a live view. With one of them nil it is the other alone. Asked both, it
// is also a Confirmer: a person who cannot confirm is asked the
// confirmation's question, a yes (IsYes) allowing the action.
func EitherHuman(a, b Human) Human {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return bothHumans{a, b}
}

type bothHumans struct{ a, b Human }

// Ask asks both and returns the first answer; the other question ends.
func (h bothHumans) Ask(ctx context.Context, question string) (string, error) {
	return firstAnswer(ctx, func(ctx context.Context, p Human) (string, error) { return p.Ask(ctx, question) }, h.a, h.b)
}

// Confirm asks both and takes the first answer.
func (h bothHumans) Confirm(ctx context.Context, c Confirmation) (bool, error) {
	return firstAnswer(ctx, func(ctx context.Context, p Human) (bool, error) {
		if cf, ok := p.(Confirmer); ok {
			return cf.Confirm(ctx, c)
		}
		ans, err := p.Ask(ctx, c.Question)
		return IsYes(ans), err
	}, h.a, h.b)
}

// firstAnswer runs ask with each person and returns the first answer that
// is not an error (or the last error, when every one failed); the others'
// ctx ends.
func firstAnswer[T any](ctx context.Context, ask func(context.Context, Human) (T, error), people ...Human) (T, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type got struct {
		v   T
		err error
	}
	ch := make(chan got, len(people))
	for _, p := range people {
		go func() {
			v, err := ask(ctx, p)
			ch <- got{v, err}
		}()
	}
	var last got
	for range people {
		last = <-ch
		if last.err == nil {
			return last.v, nil
		}
	}
	return last.v, last.err
}
