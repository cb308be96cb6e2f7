package llm

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/webagent/webagent/watchdog"
)

// streamWatch links one call to Complete with the attempts the retrying
// HTTPDoer makes for it: each attempt runs under its own inactivity window
// (so back-off sleeps are not counted as silence), and the attempt that is
// kept hands its window to Complete, which reads the stream under it.
//
// It is used by one goroutine: the doer runs inside Complete's call to the
// client library.
type streamWatch struct {
	window    time.Duration
	ctx       context.Context // context of the latest attempt
	in        *watchdog.Inactivity
	attempts  int
	streaming bool // a 2xx response arrived
}

type watchKey struct{}

func withWatch(ctx context.Context, w *streamWatch) context.Context {
	return context.WithValue(ctx, watchKey{}, w)
}

func watchFrom(ctx context.Context) *streamWatch {
	w, _ := ctx.Value(watchKey{}).(*streamWatch)
	return w
}

// attempt starts the inactivity window of a new attempt under parent and
// releases the previous one.
func (w *streamWatch) attempt(parent context.Context) (context.Context, error) {
	w.stop()
	ctx, in, err := watchdog.NewInactivity(parent, "model server", w.window)
	if err != nil {
		return nil, err
	}
	w.ctx, w.in = ctx, in
	w.attempts++
	return ctx, nil
}

// stop releases the current attempt's window and cancels its context,
// which closes its connection.
func (w *streamWatch) stop() {
	if w.in != nil {
		w.in.Stop()
	}
}

// idle returns the *watchdog.IdleError when the current attempt's window
// fired, else nil.
func (w *streamWatch) idle() error {
	if w.ctx == nil {
		return nil
	}
	if cause := context.Cause(w.ctx); errors.Is(cause, watchdog.ErrTimeout) {
		return cause
	}
	return nil
}

// touchBody restarts the inactivity window whenever bytes arrive, SSE
// comment lines (keep-alives) included.
type touchBody struct {
	io.ReadCloser
	in *watchdog.Inactivity
}

func (b *touchBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.in.Touch()
	}
	return n, err
}
