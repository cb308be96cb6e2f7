package liveview

import (
	"context"
	"encoding/json"
	"net/url"
	"sync"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
)

// Options describe one View.
type Options struct {
	// Title names what is watched: "webagent run", "session work", "task
	// 3f2c".
	Title string
	// Task is the task in words, shown above the steps ("" for a
	// session); it is the user's, never a secret (the loop masks them).
	Task string
	// Idle is how long a person may hold control without input before it
	// goes back to the agent (the human timeout); 0 never.
	Idle time.Duration
	// TokenTTL ends the tokens after this long (new ones with Revoke);
	// 0 lets them live as long as the View.
	TokenTTL time.Duration
	// Cast shapes the screencast; zero values take the browser's defaults.
	Cast contract.ScreencastOptions
	// OnRevoke is told this View's new URLs after a viewer revoked its
	// links from the page (after Config.OnRevoke): whoever started the
	// run needs them.
	OnRevoke func(view, control string)
}

// Limits of what a View keeps.
const (
	maxSteps  = 200 // steps replayed to a viewer who joins
	maxFilm   = 100 // frames of the filmstrip
	maxEvents = 20  // screen events replayed to a viewer who joins
)

// View is one watched run or session. It is an agent.Observer,
// agent.Human, agent.Confirmer, and its Lease an agent.Control.
type View struct {
	srv   *Server
	id    string
	opts  Options
	tok   tokens
	lease *Lease

	mu        sync.Mutex
	viewers   map[*viewer]struct{}
	screen    contract.Screencaster
	cast      *cast    // the screencast while someone watches
	frame     *[]byte  // the newest frame's message
	frameHeld bool     // it was painted while a person held control
	steps     [][]byte // the steps' messages, the newest maxSteps
	iter      []byte   // the latest iteration's message
	events    [][]byte // the screen's events
	questions map[int]*pending
	qseq      int
	result    []byte
	film      []filmFrame
	closed    bool
	done      chan struct{} // closed by Close
	started   time.Time
}

var (
	_ agent.IterationObserver = (*View)(nil)
	_ agent.Human             = (*View)(nil)
	_ agent.Confirmer         = (*View)(nil)
	_ agent.Control           = (*Lease)(nil)
)

// Viewers is how many pages watch the View now.
func (v *View) Viewers() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.viewers)
}

// ID is the View's id, the path of its URLs.
func (v *View) ID() string { return v.id }

// Lease is the View's control lease (agent.WithControl).
func (v *View) Lease() *Lease { return v.lease }

// URLs are the View's two URLs: view watches, control also answers and
// takes over. They are for the person, never for the model or a log.
func (v *View) URLs() (view, control string) {
	vt, ct := v.tok.current()
	base := v.srv.base + "/v/" + v.id
	return base + "?t=" + url.QueryEscape(vt), base + "?t=" + url.QueryEscape(ct)
}

// Revoke makes new tokens: the old URLs stop working and every viewer is
// disconnected. It returns the new URLs.
func (v *View) Revoke() (view, control string) {
	v.tok.rotate()
	v.mu.Lock()
	vs := v.viewerList()
	v.mu.Unlock()
	for _, w := range vs {
		w.kick("the links were revoked")
	}
	v.register()
	return v.URLs()
}

// Attach gives the View the browser to show and drive. A View without
// one shows the steps alone.
func (v *View) Attach(s contract.Screencaster) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.screen = s
	if len(v.viewers) > 0 && v.cast == nil && s != nil {
		v.startCastLocked()
	}
}

// Detach stops showing the browser (it is about to close).
func (v *View) Detach() {
	v.mu.Lock()
	c := v.cast
	v.cast, v.screen = nil, nil
	v.mu.Unlock()
	if c != nil {
		c.stop()
	}
}

// viewerList is the viewers now; v.mu is held.
func (v *View) viewerList() []*viewer {
	out := make([]*viewer, 0, len(v.viewers))
	for w := range v.viewers {
		out = append(out, w)
	}
	return out
}

// broadcast sends a text message to every viewer.
func (v *View) broadcast(msg []byte) {
	v.mu.Lock()
	vs := v.viewerList()
	v.mu.Unlock()
	for _, w := range vs {
		w.send(msg)
	}
}

func message(typ string, body any) []byte {
	m := map[string]any{"type": typ}
	if body != nil {
		m["data"] = body
	}
	b, _ := json.Marshal(m)
	return b
}

// OnIteration implements agent.IterationObserver: the watchdog's state.
func (v *View) OnIteration(i int, deadline time.Time) {
	body := map[string]any{"n": i, "started_ms": time.Now().UnixMilli()}
	if !deadline.IsZero() {
		body["deadline_ms"] = deadline.UnixMilli()
	}
	msg := message("iter", body)
	v.mu.Lock()
	v.iter = msg
	v.mu.Unlock()
	v.broadcast(msg)
}

// OnStep implements agent.Observer. The step's frame joins the
// filmstrip, unless a person held control as it was painted.
func (v *View) OnStep(s agent.Step) {
	msg := message("step", s)
	v.mu.Lock()
	v.steps = append(v.steps, msg)
	if len(v.steps) > maxSteps {
		v.steps = v.steps[len(v.steps)-maxSteps:]
	}
	// No frame painted while a person held control is kept.
	if v.frame != nil && !v.frameHeld && !v.lease.held() && len(v.film) < maxFilm {
		v.film = append(v.film, filmFrame{Iteration: s.Iteration, frame: *v.frame})
	}
	v.mu.Unlock()
	v.broadcast(msg)
}

// Finish shows the run's result; the View stays open until Close.
func (v *View) Finish(res *agent.Result) {
	if res == nil {
		return
	}
	body := map[string]any{"status": res.Status, "code": res.Code, "message": res.Message,
		"answer": res.Answer, "iterations": res.Iterations, "duration_ms": res.DurationMS}
	msg := message("result", body)
	v.mu.Lock()
	v.result = msg
	v.mu.Unlock()
	v.broadcast(msg)
	// The filmstrip now: a command's view ends with its process.
	for _, m := range v.filmMessages() {
		v.broadcast(m)
	}
}

// Close ends the View: its tokens stop working, its viewers are told it
// ended and disconnected, its screencast stops. Close waits for none of
// them beyond their write deadline.
func (v *View) Close() {
	v.mu.Lock()
	if v.closed {
		v.mu.Unlock()
		return
	}
	v.closed = true
	close(v.done)
	vs := v.viewerList()
	c := v.cast
	v.cast, v.screen = nil, nil
	v.mu.Unlock()
	v.tok.end()
	v.lease.shutdown()
	if c != nil {
		c.stop()
	}
	for _, w := range vs {
		w.end()
	}
	v.srv.remove(v)
	v.unregister()
	// Each viewer ends within its flush and last message (flushTimeout,
	// byeTimeout): no closing handshake waits on a page that stopped
	// reading.
	for _, w := range vs {
		<-w.done
	}
}

// controlChanged tells every viewer the lease's state, each whether it is
// the one holding it.
func (v *View) controlChanged() {
	st, key := v.lease.view()
	v.mu.Lock()
	vs := v.viewerList()
	v.mu.Unlock()
	for _, w := range vs {
		w.sendControl(st, key)
	}
}

// screenEvent hands on what the screen cannot show.
func (v *View) screenEvent(ev contract.ScreenEvent) {
	switch ev.Kind {
	case contract.ScreenNavigated, contract.ScreenTab:
		v.lease.visited(ev.Text)
	case contract.ScreenTyped:
		v.lease.typedInto(ev.Text)
	}
	msg := message("screen", ev)
	v.mu.Lock()
	v.events = append(v.events, msg)
	if len(v.events) > maxEvents {
		v.events = v.events[len(v.events)-maxEvents:]
	}
	v.mu.Unlock()
	v.broadcast(msg)
}

// personInput sends a controlling viewer's input to the browser, and
// records what it acted on when the browser says (contract.PersonRecorder).
func (v *View) personInput(ctx context.Context, key string, in contract.PersonInput) error {
	if err := v.lease.check(key); err != nil {
		return err
	}
	v.lease.input(in)
	v.mu.Lock()
	s := v.screen
	v.mu.Unlock()
	if s == nil {
		return errNoBrowser
	}
	rec, ok := s.(contract.PersonRecorder)
	if !ok {
		return s.PersonInput(ctx, in)
	}
	tg, err := rec.PersonAct(ctx, in)
	if err != nil {
		return err
	}
	v.lease.did(in, tg)
	return nil
}
