package liveview

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/webagent/webagent/contract"
)

// A viewer is one WebSocket of a View's page. Its writer goroutine sends
// the queued text messages in order and, when free, the newest frame;
// every write has a deadline, and a viewer that cannot keep up with the
// text messages (its queue full) is disconnected: its page reconnects and
// is sent the whole state again. Its reader takes the page's requests.

// Bounds of a viewer.
const (
	writeTimeout = 5 * time.Second // one message to a viewer
	queueLen     = 640             // messages waiting for a viewer (the state of a finished run fits)
	maxRequest   = 64 << 10        // one message from a viewer
	inputTimeout = 5 * time.Second // one input of a person, in the browser
)

type viewer struct {
	v     *View
	conn  *websocket.Conn
	role  role
	queue chan []byte
	frame chan *[]byte // the newest frame, at most one waiting
	ctx   context.Context
	stop  context.CancelCauseFunc
	done  chan struct{}

	mu  sync.Mutex
	key string // the lease key this viewer holds, if any
}

func newViewer(v *View, conn *websocket.Conn, r role) *viewer {
	ctx, stop := context.WithCancelCause(context.Background())
	return &viewer{v: v, conn: conn, role: r, queue: make(chan []byte, queueLen), frame: make(chan *[]byte, 1),
		ctx: ctx, stop: stop, done: make(chan struct{})}
}

// send queues a text message; a viewer whose queue is full is dropped.
func (w *viewer) send(msg []byte) {
	select {
	case w.queue <- msg:
	default:
		w.kick("this viewer fell behind; reconnect")
	}
}

// newFrame replaces the frame waiting for the viewer, if any.
func (w *viewer) newFrame(f *[]byte) {
	for {
		select {
		case w.frame <- f:
			return
		default:
		}
		select {
		case <-w.frame: // drop the older
		default:
		}
	}
}

// kick ends the viewer's connection with reason.
func (w *viewer) kick(reason string) { w.stop(errors.New(reason)) }

// errEnded ends a viewer whose View closed: what is queued for it is
// still sent, within flushTimeout.
var errEnded = errors.New("the run ended")

// flushTimeout bounds what a viewer of a closed View is still sent.
const flushTimeout = time.Second

// end ends the viewer after what is queued for it.
func (w *viewer) end() { w.stop(errEnded) }

// sendControl tells the viewer the lease's state and whether it holds it.
func (w *viewer) sendControl(st leaseState, key string) {
	w.mu.Lock()
	mine := w.key != "" && w.key == key
	w.mu.Unlock()
	w.send(message("control", map[string]any{"state": st.State, "reason": st.Reason, "since_ms": st.Since,
		"idle_ms": st.Idle, "mine": mine}))
}

// serve runs the viewer until its connection ends.
func (w *viewer) serve() {
	defer close(w.done)
	if !w.v.joined(w) {
		w.conn.Close(websocket.StatusGoingAway, "the run ended")
		return
	}
	defer w.v.left(w)
	for _, m := range w.v.state(w.role) {
		w.queue <- m // fresh queue: room for the state
	}
	w.v.mu.Lock()
	if f := w.v.frame; f != nil {
		w.newFrame(f) // the keyframe
	}
	w.v.mu.Unlock()
	st, key := w.v.lease.view()
	w.sendControl(st, key)
	// The reader has a context of its own: a Read whose context ends
	// closes the connection at once, and what is queued for the viewer
	// of a View that ended (its result) and the reason of the close
	// must still reach the page.
	rctx, stopRead := context.WithCancel(context.Background())
	read := make(chan struct{})
	go func() {
		defer close(read)
		w.read(rctx)
	}()
	w.write()
	reason := "closed"
	if c := context.Cause(w.ctx); c != nil {
		reason = c.Error()
	}
	// The reason goes as a last message, within byeTimeout, and the
	// connection ends without the closing handshake, which waits up to 5 s
	// for a page that may have stopped reading: a View's Close, and a
	// command's exit after its result, stay bounded.
	ctx, cancel := context.WithTimeout(context.Background(), byeTimeout)
	_ = w.conn.Write(ctx, websocket.MessageText, message("bye", reason))
	cancel()
	w.conn.CloseNow()
	stopRead()
	<-read
}

// byeTimeout bounds the last message to a viewer, the reason it ends.
const byeTimeout = time.Second

// write sends the queued messages and the newest frame until the viewer
// ends.
func (w *viewer) write() {
	for {
		var msg []byte
		typ := websocket.MessageText
		select {
		case <-w.ctx.Done():
			w.flush()
			return
		case msg = <-w.queue:
		default:
			select {
			case <-w.ctx.Done():
				w.flush()
				return
			case msg = <-w.queue:
			case f := <-w.frame:
				msg, typ = *f, websocket.MessageBinary
			}
		}
		if len(msg) > 0 && msg[0] != '{' {
			typ = websocket.MessageBinary // a filmstrip's frame
		}
		if err := w.writeOne(typ, msg); err != nil {
			w.stop(err)
			return
		}
	}
}

// writeOne writes one message within writeTimeout. A viewer kicked meanwhile
// is cut off at once; one whose View ended finishes the write (a write
// whose context ends closes the connection, and the result, the last
// message, would be lost).
func (w *viewer) writeOne(typ websocket.MessageType, msg []byte) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(w.ctx), writeTimeout)
	defer cancel()
	kicked := context.AfterFunc(w.ctx, func() {
		if !errors.Is(context.Cause(w.ctx), errEnded) {
			cancel()
		}
	})
	defer kicked()
	return w.conn.Write(ctx, typ, msg)
}

// flush sends what is queued to the viewer of a View that closed.
func (w *viewer) flush() {
	if !errors.Is(context.Cause(w.ctx), errEnded) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	for {
		select {
		case msg := <-w.queue:
			typ := websocket.MessageText
			if len(msg) > 0 && msg[0] != '{' {
				typ = websocket.MessageBinary
			}
			if w.conn.Write(ctx, typ, msg) != nil {
				return
			}
		default:
			return
		}
	}
}

// request is a message from the page.
type request struct {
	Type  string               `json:"type"`
	ID    int                  `json:"id,omitempty"`   // answer
	Text  string               `json:"text,omitempty"` // answer, handback's note
	Yes   bool                 `json:"yes,omitempty"`  // answer
	Key   string               `json:"key,omitempty"`  // hello, input, handback
	Input contract.PersonInput `json:"input,omitzero"`
}

// read takes the page's requests until the connection ends (or ctx).
func (w *viewer) read(ctx context.Context) {
	w.conn.SetReadLimit(maxRequest)
	for {
		_, data, err := w.conn.Read(ctx)
		if err != nil {
			w.stop(err)
			return
		}
		if w.ctx.Err() != nil {
			continue // ended: read on until the close handshake
		}
		var req request
		if err := json.Unmarshal(data, &req); err != nil {
			w.send(message("error", "a request that is not JSON"))
			continue
		}
		if err := w.handle(req); err != nil {
			w.send(message("error", map[string]any{"request": req.Type, "message": err.Error()}))
		}
	}
}

var errViewOnly = errors.New("this link only watches: open the control link to answer or take over")

// handle carries out one request of the page.
func (w *viewer) handle(req request) error {
	if req.Type == "hello" || req.Type == "film" {
		return w.hello(req)
	}
	if w.role != roleControl {
		return errViewOnly
	}
	v := w.v
	switch req.Type {
	case "answer":
		return v.answer(req.ID, req.Text, req.Yes)
	case "take":
		key, err := v.lease.take()
		if err != nil {
			return err
		}
		w.mu.Lock()
		w.key = key
		w.mu.Unlock()
		w.send(message("key", key))
		v.controlChanged()
		return nil
	case "handback":
		return v.lease.handBack(req.Key, req.Text)
	case "input":
		ctx, cancel := context.WithTimeout(w.ctx, inputTimeout)
		defer cancel()
		return v.personInput(ctx, req.Key, req.Input)
	case "revoke":
		go v.revokeFromPage()
		return nil
	}
	return errors.New("unknown request " + req.Type)
}

// hello: a page that reconnects names the key it held; film asks for the
// filmstrip.
func (w *viewer) hello(req request) error {
	if req.Type == "film" {
		for _, m := range w.v.filmMessages() {
			select {
			case w.queue <- m:
			case <-w.ctx.Done():
				return nil
			}
		}
		return nil
	}
	if w.role == roleControl && req.Key != "" {
		w.mu.Lock()
		w.key = req.Key
		w.mu.Unlock()
	}
	st, key := w.v.lease.view()
	w.sendControl(st, key)
	return nil
}
