package liveview

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"sync"
	"time"
)

// role is what a token lets a viewer do.
type role int

const (
	roleNone    role = iota
	roleView         // watch
	roleControl      // watch, answer, take over, revoke
)

// tokens are a View's two tokens and when they expire.
type tokens struct {
	mu      sync.Mutex
	view    string
	control string
	expires time.Time // zero: with the View
	ttl     time.Duration
	ended   bool
}

// newToken returns 128 random bits, base64url.
func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// rotate makes new tokens: the old ones stop working.
func (t *tokens) rotate() (view, control string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.view, t.control = newToken(), newToken()
	t.expires = time.Time{}
	if t.ttl > 0 {
		t.expires = time.Now().Add(t.ttl)
	}
	return t.view, t.control
}

func (t *tokens) current() (view, control string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.view, t.control
}

// end makes every token fail from now on.
func (t *tokens) end() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.ended = true
}

// check returns the role of tok, compared in constant time.
func (t *tokens) check(tok string) role {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ended || tok == "" || (!t.expires.IsZero() && time.Now().After(t.expires)) {
		return roleNone
	}
	switch {
	case subtle.ConstantTimeCompare([]byte(tok), []byte(t.control)) == 1:
		return roleControl
	case subtle.ConstantTimeCompare([]byte(tok), []byte(t.view)) == 1:
		return roleView
	}
	return roleNone
}
