package browser

import (
	"sync"
)

// notices collects what happened since the last snapshot that the page no
// longer shows, such as an answered dialog.
type notices struct {
	mu    sync.Mutex
	list  []string // not yet returned by a snapshot
	total int      // notices ever added
}

func (n *notices) add(s string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.list = append(n.list, s)
	n.total++
}

// take returns the pending notices and clears them.
func (n *notices) take() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	l := n.list
	n.list = nil
	return l
}

// mark returns a position for since.
func (n *notices) mark() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.total
}

// since returns the pending notices added after mark, leaving them pending.
func (n *notices) since(mark int) []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	k := min(n.total-mark, len(n.list))
	return append([]string(nil), n.list[len(n.list)-k:]...)
}
