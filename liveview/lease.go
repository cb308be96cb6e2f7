package liveview

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
)

// The control lease: who may act on the browser, the agent (or a session's
// commands) or one person. A person's "take over" is granted only where the
// actor is between steps (Act and its release), so the agent never acts
// while a person holds control and a person's input never lands in the
// middle of a step. Each grant has a key, its epoch and a random part:
// input that names another key (a grant handed back since, a viewer that
// never held it) is refused. The key lives in the viewer's page, so control
// survives its reconnect.

// ErrHeld is returned by Lease.Act (without waiting) while a person holds
// control of the browser.
var ErrHeld = errors.New("a person has control of the browser in the live view; try again after they hand it back")

// The lease's states, as viewers see them.
const (
	stateAgent     = "agent"     // the agent (or the session's commands) acts
	stateRequested = "requested" // a person asked; granted at the next step boundary
	stateAsked     = "asked"     // the agent asks a person to take over (a CAPTCHA, a second factor)
	stateHeld      = "held"      // a person has control
)

// Lease is the control lease of one view. Its zero value is not usable; see
// newLease.
type Lease struct {
	idle    time.Duration // a holder idle this long hands back (0: never)
	changed func()        // called, without the lock, after every change

	mu       sync.Mutex
	state    string
	key      string // the grant's key, while requested or held
	epoch    int64
	reason   string      // why the agent asks (stateAsked)
	acting   int         // actors between Act and release
	since    time.Time   // when the hold began
	lastIn   time.Time   // the holder's last input
	pages    []string    // where the held tab went
	fields   []string    // the fields the holder typed into
	typed    []string    // what they typed, a text per field (never shown)
	steps    personSteps // what they did, element by element
	note     string      // what the person wrote on handing back
	backIdle bool
	back     chan struct{} // closed when the hold ends
	granted  chan struct{} // closed when the request is granted
}

func newLease(idle time.Duration, changed func()) *Lease {
	return &Lease{idle: idle, changed: changed, state: stateAgent}
}

func newKey(epoch int64) string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%d-%s", epoch, hex.EncodeToString(b))
}

// leaseState is what a viewer is told of the lease.
type leaseState struct {
	State  string `json:"state"`
	Reason string `json:"reason,omitempty"`
	Since  int64  `json:"since_ms,omitempty"` // when the hold began, Unix ms
	Idle   int64  `json:"idle_ms,omitempty"`  // the idle bound
}

func (l *Lease) view() (leaseState, string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := leaseState{State: l.state, Reason: l.reason, Idle: l.idle.Milliseconds()}
	if l.state == stateHeld {
		s.Since = l.since.UnixMilli()
	}
	return s, l.key
}

// take asks for control; it returns the grant's key at once (the grant
// itself comes at the next step boundary, or now when no step runs).
func (l *Lease) take() (string, error) {
	l.mu.Lock()
	switch l.state {
	case stateHeld, stateRequested:
		l.mu.Unlock()
		return "", errors.New("another viewer already has or asked for control")
	}
	l.epoch++
	l.key = newKey(l.epoch)
	if l.state != stateAsked { // Handover waits on the channel it made
		l.granted = make(chan struct{})
	}
	if l.state == stateAsked || l.acting == 0 {
		l.grantLocked()
	} else {
		l.state = stateRequested
	}
	key := l.key
	l.mu.Unlock()
	l.changed()
	return key, nil
}

func (l *Lease) grantLocked() {
	l.state, l.reason = stateHeld, ""
	l.since, l.lastIn = time.Now(), time.Now()
	l.pages, l.note, l.backIdle = nil, "", false
	l.fields, l.typed, l.steps = nil, nil, personSteps{}
	l.back = make(chan struct{})
	close(l.granted)
	if l.idle > 0 {
		epoch := l.epoch
		go l.watchIdle(epoch, l.back)
	}
}

// watchIdle hands back the hold of epoch once its holder was idle for the
// idle bound.
func (l *Lease) watchIdle(epoch int64, back chan struct{}) {
	t := time.NewTimer(l.idle)
	defer t.Stop()
	for {
		select {
		case <-back:
			return
		case <-t.C:
		}
		l.mu.Lock()
		if l.epoch != epoch || l.state != stateHeld {
			l.mu.Unlock()
			return
		}
		if left := l.idle - time.Since(l.lastIn); left > 0 {
			l.mu.Unlock()
			t.Reset(left)
			continue
		}
		l.backIdle = true
		l.endLocked()
		l.mu.Unlock()
		l.changed()
		return
	}
}

// check reports whether key is the grant held now, and notes the input's
// time for the idle bound.
func (l *Lease) check(key string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.state != stateHeld || key == "" || key != l.key {
		return errors.New("input refused: this viewer does not hold control (it was handed back, or another viewer holds it)")
	}
	l.lastIn = time.Now()
	return nil
}

// visited notes a page the held tab went to.
func (l *Lease) visited(url string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.state == stateHeld && (len(l.pages) == 0 || l.pages[len(l.pages)-1] != url) && len(l.pages) < 20 {
		l.pages = append(l.pages, url)
	}
}

// typedInto notes a field the holder's keys went to.
func (l *Lease) typedInto(field string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.state != stateHeld {
		return
	}
	if !slices.Contains(l.fields, field) && len(l.fields) < 20 {
		l.fields = append(l.fields, field)
	}
}

// input keeps what the holder types, to mask it from the model later: a
// click or Tab starts a new text, Backspace takes back a character.
func (l *Lease) input(in contract.PersonInput) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.state != stateHeld {
		return
	}
	if in.Kind == contract.InputMouseDown || (in.Kind == contract.InputKeyDown && in.Key == "Tab") || len(l.typed) == 0 {
		if len(l.typed) == 0 || l.typed[len(l.typed)-1] != "" {
			l.typed = append(l.typed, "")
		}
	}
	last := &l.typed[len(l.typed)-1]
	switch {
	case in.Kind == contract.InputText:
		*last += in.Text
	case in.Kind == contract.InputKeyDown && in.Key == "Backspace":
		if r := []rune(*last); len(r) > 0 {
			*last = string(r[:len(r)-1])
		}
	case in.Kind == contract.InputKeyDown && in.Modifiers&(2|4) == 0 && len([]rune(in.Text)) == 1:
		*last += in.Text
	}
	if len(l.typed) > 64 {
		l.typed = l.typed[len(l.typed)-64:]
	}
}

// did records an input the holder's browser dispatched, whose target is
// tg (contract.PersonRecorder), in the hold's element-level record.
func (l *Lease) did(in contract.PersonInput, tg contract.PersonTarget) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.state == stateHeld {
		l.steps.add(in, tg)
	}
}

// handBack ends the hold of key, with the person's note for the agent.
func (l *Lease) handBack(key, note string) error {
	l.mu.Lock()
	if l.key != key || (l.state != stateHeld && l.state != stateRequested) {
		l.mu.Unlock()
		return errors.New("nothing to hand back: this viewer does not hold control")
	}
	if l.state == stateRequested {
		l.state, l.key = stateAgent, "" // asked and changed their mind
	} else {
		l.note = note
		l.endLocked()
	}
	l.mu.Unlock()
	l.changed()
	return nil
}

func (l *Lease) endLocked() {
	l.state, l.key = stateAgent, ""
	close(l.back)
}

// shutdown ends a hold or a request when the View closes: the agent (or
// a session) waiting for a hand back goes on.
func (l *Lease) shutdown() {
	l.mu.Lock()
	switch l.state {
	case stateHeld:
		l.note = "(the live view closed)"
		l.endLocked()
	case stateRequested, stateAsked:
		l.state, l.key, l.reason = stateAgent, "", ""
	}
	l.mu.Unlock()
}

// held reports whether a person holds control now.
func (l *Lease) held() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.state == stateHeld
}

// Wanted implements agent.Control.
func (l *Lease) Wanted() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.state == stateRequested || l.state == stateHeld
}

// Act implements agent.Control: it waits while a person holds or asked for
// control (until they hand back or ctx ends), then counts the caller as
// acting until release; a request made meanwhile is granted at release.
func (l *Lease) Act(ctx context.Context) (func(), *agent.Handback, error) {
	var hb *agent.Handback
	for {
		l.mu.Lock()
		switch l.state {
		case stateRequested:
			if l.acting == 0 {
				l.grantLocked()
				l.mu.Unlock()
				l.changed()
				continue
			}
		case stateHeld:
			back := l.back
			l.mu.Unlock()
			h, err := l.wait(ctx, back)
			if err != nil {
				return nil, hb, err
			}
			hb = h
			continue
		}
		l.acting++
		l.mu.Unlock()
		return sync.OnceFunc(l.release), hb, nil
	}
}

// TryAct is Act for a caller that must not wait (a session's command):
// ErrHeld while a person holds or asked for control.
func (l *Lease) TryAct() (func(), error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.state == stateHeld || l.state == stateRequested {
		return nil, ErrHeld
	}
	l.acting++
	return sync.OnceFunc(l.release), nil
}

func (l *Lease) release() {
	l.mu.Lock()
	l.acting--
	grant := l.acting == 0 && l.state == stateRequested
	if grant {
		l.grantLocked()
	}
	l.mu.Unlock()
	if grant {
		l.changed()
	}
}

// wait waits for the hold to end and says what happened in it.
func (l *Lease) wait(ctx context.Context, back chan struct{}) (*agent.Handback, error) {
	select {
	case <-back:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var typed []string
	for _, t := range l.typed {
		if t != "" {
			typed = append(typed, t)
		}
	}
	return &agent.Handback{Held: time.Since(l.since), Pages: append([]string(nil), l.pages...), Note: l.note, Idle: l.backIdle,
		Fields: append([]string(nil), l.fields...), Typed: typed, Actions: append([]agent.PersonAction(nil), l.steps.acts...)}, nil
}

// Handover implements agent.Control: the agent asks a person to take over
// for reason; it waits up to wait for one to, then until they hand back.
// It returns nil when no one took over in time.
func (l *Lease) Handover(ctx context.Context, reason string, wait time.Duration) (*agent.Handback, error) {
	l.mu.Lock()
	if l.state == stateAgent {
		l.state, l.reason = stateAsked, reason
		l.granted = make(chan struct{})
	}
	granted := l.granted
	l.mu.Unlock()
	l.changed()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-granted:
	case <-t.C:
	case <-ctx.Done():
	}
	l.mu.Lock()
	if l.state == stateAsked {
		l.state, l.reason = stateAgent, ""
		l.mu.Unlock()
		l.changed()
		return nil, ctx.Err()
	}
	back := l.back
	held := l.state == stateHeld
	l.mu.Unlock()
	if !held {
		return nil, ctx.Err()
	}
	return l.wait(ctx, back)
}
