package browser

import (
	"sync"

	"github.com/webagent/webagent/contract"
)

// Where the browser may go is decided by one guard, egress.Guard
// (Browser.guard): goto and the interceptor (intercept.go) ask it about
// documents, and the egress proxy (egress.go), which holds the same guard,
// about every request the pages make. What is kept here is what goto needs
// to say why Chromium refused a navigation the interceptor blocked.

// Confine sets the navigation policy of every tab of the Browser, from now
// on: for the documents it opens (the interceptor) and for every request
// its pages make (the egress). It implements contract.Confiner.
func (b *Browser) Confine(p contract.NavigationPolicy) error {
	b.guard.Confine(&p)
	if b.egress == nil && (len(p.Allowed) > 0 || len(p.Blocked) > 0 || !p.AllowPrivateNetwork) {
		b.log.Warn("attached to a browser's own context: only documents are held to the limits, not the requests pages make (use an isolated context)")
	}
	return nil
}

// refusals remembers what the guard refused last, for the goto that asked
// for it; safe for concurrent use (the interceptor runs on the browser's
// event goroutines).
type refusals struct {
	mu   sync.Mutex
	last string
}

// remember records why a URL was refused, for the goto waiting on it.
func (r *refusals) remember(u, why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.last = shortURL(u) + " was refused: " + why
}

// take returns and forgets the latest refusal, "" if none.
func (r *refusals) take() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	w := r.last
	r.last = ""
	return w
}
