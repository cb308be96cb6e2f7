package browser

import (
	"time"

	"github.com/chromedp/cdproto/network"
)

// The requests an input makes the page send: a click that saves with
// fetch, a form sent by XHR. The page changes when the answer comes, after
// the input's own tasks ran, so an action that ended then would leave the
// next snapshot to show the page before the answer, and the model to look
// again. After an input, the fetch and XHR requests its tasks sent are
// waited for, fetchGrace at most, and then the tasks their answers
// queued; requests sent later (a timer's poll) are not. The tab's Network
// events carry them (the connection enables Network on every tab).

// fetchGrace bounds the wait for the requests an input made the page send.
const fetchGrace = 2 * time.Second

// maxOpenFetches bounds the requests followed at once. A request whose end
// never shows (its events lost with a frame) would otherwise stay for the
// tab's life; a wait is only ever for the newest, sent since an input.
const maxOpenFetches = 256

// fetchSent records a fetch or XHR request of the tab's documents. Other
// requests (documents, images, scripts) are followed elsewhere or not at
// all. It wakes no waiter: no wait is for a request to start.
func (n *navTracker) fetchSent(e *network.EventRequestWillBeSent) bool {
	if e.Type != network.ResourceTypeFetch && e.Type != network.ResourceTypeXHR {
		return false
	}
	if _, ok := n.fetchOpen[e.RequestID]; ok {
		return false // a redirect of a request under way
	}
	if n.fetchOpen == nil {
		n.fetchOpen = map[network.RequestID]int{}
	}
	if len(n.fetchOpen) >= maxOpenFetches {
		n.forgetOldestFetch()
	}
	n.fetches++
	n.fetchOpen[e.RequestID] = n.fetches
	return false
}

// forgetOldestFetch stops following the open request sent first.
func (n *navTracker) forgetOldestFetch() {
	var oldest network.RequestID
	first := -1
	for id, seq := range n.fetchOpen {
		if first < 0 || seq < first {
			oldest, first = id, seq
		}
	}
	delete(n.fetchOpen, oldest)
}

// fetchEnded records the end of a request, answered or failed; it reports
// whether it was a fetch or XHR under way.
func (n *navTracker) fetchEnded(id network.RequestID) bool {
	if _, ok := n.fetchOpen[id]; !ok {
		return false
	}
	delete(n.fetchOpen, id)
	return true
}

// fetching reports whether a fetch or XHR request numbered after lo, and
// up to hi (any when hi < 0), is under way.
func (s navState) fetching(lo, hi int) bool {
	for _, seq := range s.fetchOpen {
		if seq > lo && (hi < 0 || seq <= hi) {
			return true
		}
	}
	return false
}

// awaitFetches waits, fetchGrace at most, for the fetch and XHR requests
// sent since s0 until now (the input's tasks have run: probeInput) to end,
// or for a navigation or a new tab meanwhile. It reports whether there
// were any.
func (o *op) awaitFetches(s0 navState) (bool, error) {
	b := o.b
	s1 := b.nav.state()
	hi := s1.fetches
	if !s1.fetching(s0.fetches, hi) {
		return false, nil
	}
	_, err := b.nav.wait(o.ctx, fetchGrace, func(s navState) bool {
		return !s.fetching(s0.fetches, hi) || s.moved(s0) || s.opened(s0) || s.requestedSince(s0)
	})
	return true, err
}
