package liveview

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"time"

	"github.com/webagent/webagent/contract"
)

// The screencast, shared by a View's viewers: started when the first one
// joins (and a browser is attached), stopped when the last leaves. Each
// frame replaces the View's newest; each viewer's writer sends the newest
// when it is free, so a slow viewer drops frames and never holds the cast
// (the browser's callback only stores and signals).

// cast is one running screencast.
type cast struct {
	cancel context.CancelFunc
	done   chan struct{}
}

func (c *cast) stop() {
	c.cancel()
	<-c.done
}

// startCastLocked starts the screencast; v.mu is held.
func (v *View) startCastLocked() {
	ctx, cancel := context.WithCancel(context.Background())
	c := &cast{cancel: cancel, done: make(chan struct{})}
	v.cast = c
	s, opts := v.screen, v.opts.Cast
	go func() {
		defer close(c.done)
		err := s.Screencast(ctx, opts, v.onFrame, v.screenEvent)
		if err != nil && ctx.Err() == nil {
			v.srv.log.Debug("the screencast ended", "view", v.id, "error", err)
		}
	}()
}

// frameHeader precedes a frame's JPEG in its binary message: a 4-byte
// big-endian length, then this as JSON.
type frameHeader struct {
	Tab     string  `json:"tab"`
	Width   float64 `json:"w"` // the page's CSS pixels
	Height  float64 `json:"h"`
	ScrollX float64 `json:"sx,omitempty"`
	ScrollY float64 `json:"sy,omitempty"`
	At      int64   `json:"at"`   // painted, Unix ms
	Sent    int64   `json:"sent"` // handed to the viewers, Unix µs
}

// frameMessage is the binary message of f.
func frameMessage(f contract.ScreenFrame) []byte {
	h, _ := json.Marshal(frameHeader{Tab: f.Tab, Width: f.Width, Height: f.Height, ScrollX: f.ScrollX, ScrollY: f.ScrollY,
		At: f.At.UnixMilli(), Sent: time.Now().UnixMicro()})
	msg := make([]byte, 4+len(h)+len(f.JPEG))
	binary.BigEndian.PutUint32(msg, uint32(len(h)))
	copy(msg[4:], h)
	copy(msg[4+len(h):], f.JPEG)
	return msg
}

// onFrame stores the newest frame and tells the viewers.
func (v *View) onFrame(f contract.ScreenFrame) {
	msg := frameMessage(f)
	held := v.lease.held()
	v.mu.Lock()
	v.frame, v.frameHeld = &msg, held
	vs := v.viewerList()
	v.mu.Unlock()
	for _, w := range vs {
		w.newFrame(&msg)
	}
}

// filmFrame is a step's frame kept for the filmstrip.
type filmFrame struct {
	Iteration int
	frame     []byte
}

// filmMessages are the filmstrip's frames as the page takes them: a text
// message naming the step, then its frame.
func (v *View) filmMessages() [][]byte {
	v.mu.Lock()
	defer v.mu.Unlock()
	var out [][]byte
	for _, f := range v.film {
		out = append(out, message("film", map[string]any{"iteration": f.Iteration}), f.frame)
	}
	return out
}

// joined adds a viewer, starting the cast for the first one.
func (v *View) joined(w *viewer) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return false
	}
	v.viewers[w] = struct{}{}
	if v.cast == nil && v.screen != nil {
		v.startCastLocked()
	}
	return true
}

// left drops a viewer, stopping the cast after the last one.
func (v *View) left(w *viewer) {
	v.mu.Lock()
	delete(v.viewers, w)
	var c *cast
	if len(v.viewers) == 0 && v.cast != nil {
		c, v.cast = v.cast, nil
		v.frame = nil // a later viewer gets the cast's first frame
	}
	v.mu.Unlock()
	if c != nil {
		c.stop()
	}
}

// state is what a viewer who joins is sent first, in order.
func (v *View) state(r role) [][]byte {
	v.mu.Lock()
	defer v.mu.Unlock()
	hello := message("hello", map[string]any{"title": v.opts.Title, "task": v.opts.Task, "control": r == roleControl, "id": v.id})
	out := [][]byte{hello}
	out = append(out, v.steps...)
	if v.iter != nil {
		out = append(out, v.iter)
	}
	out = append(out, v.events...)
	for _, q := range v.questions {
		out = append(out, q.msg)
	}
	if v.result != nil {
		out = append(out, v.result)
		for _, f := range v.film {
			out = append(out, message("film", map[string]any{"iteration": f.Iteration}), f.frame)
		}
	}
	return out
}
