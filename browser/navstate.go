package browser

import (
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
)

// navState is what navTracker knows at one moment, and the questions the
// waits ask of it: is the document ready, did a navigation start since,
// did the tab open another.

// frameLoad is a child frame's navigation in flight.
type frameLoad struct {
	url   string
	since time.Time
}

// requestGrace is how long a requested navigation may take to start before
// the old document is taken as the page again (the request may have been
// cancelled). frameGrace is how long a snapshot waits for a child frame's
// new document; a frame still loading then is reported as such.
const (
	requestGrace = 5 * time.Second
	frameGrace   = 5 * time.Second
)

// popupInfo is a new tab opened by the tab (a link with target=_blank,
// window.open).
type popupInfo struct {
	id  target.ID
	url string
}

// lifecycle is what happened to one document.
type lifecycle struct {
	dcl, load   bool
	dclAt       time.Time
	committedAt time.Time // zero for the document present at start-up
}

// navState is a copy of the tracker's state.
type navState struct {
	started, committed int
	pending, loader    cdp.LoaderID
	url                string
	lifecycle
	popups int
	popup  popupInfo

	requested int
	reqAt     time.Time
	reqURL    string
	frames    []frameLoad // child frames loading
	frameNavs int
	now       time.Time // when the state was read
	loadGrace time.Duration
	fetches   int   // fetch and XHR requests sent so far (fetches.go)
	fetchOpen []int // the numbers of those still under way
}

// ready reports whether the main document is usable: no navigation is
// pending or recently requested, and DOMContentLoaded fired, or the
// document came loadGrace ago and is still being parsed (its body trickles
// in, a script it waits for never answers): what has arrived is used.
func (s navState) ready() bool {
	return s.pending == "" && !s.requesting() && (s.dcl || s.parseLapsed())
}

// parseLapsed reports whether the main document is still being parsed
// loadGrace after it came.
func (s navState) parseLapsed() bool {
	return !s.dcl && !s.committedAt.IsZero() && s.loadGrace > 0 && s.now.Sub(s.committedAt) >= s.loadGrace
}

// requesting reports whether a navigation was requested in the main frame
// and may still start.
func (s navState) requesting() bool {
	return !s.reqAt.IsZero() && s.now.Sub(s.reqAt) < requestGrace
}

// framesSettled reports whether no child frame waits for its new document,
// or every one that does has had frameGrace.
func (s navState) framesSettled() bool {
	for _, f := range s.frames {
		if s.now.Sub(f.since) < frameGrace {
			return false
		}
	}
	return true
}

// frameLoadingSince reports whether a child frame whose navigation began
// at t or later still waits for its new document.
func (s navState) frameLoadingSince(t time.Time) bool {
	for _, f := range s.frames {
		if !f.since.Before(t) {
			return true
		}
	}
	return false
}

// nextChange is the earliest time a time-dependent condition on s may turn
// (the load wait, a request's or a frame's grace); zero when none.
func (s navState) nextChange() time.Time {
	var t time.Time
	earliest := func(c time.Time) {
		if c.After(s.now) && (t.IsZero() || c.Before(t)) {
			t = c
		}
	}
	if s.dcl && !s.load {
		earliest(s.dclAt.Add(settleLoad))
	}
	if !s.dcl && !s.committedAt.IsZero() && s.loadGrace > 0 {
		earliest(s.committedAt.Add(s.loadGrace))
	}
	if !s.reqAt.IsZero() {
		earliest(s.reqAt.Add(requestGrace))
	}
	for _, f := range s.frames {
		earliest(f.since.Add(frameGrace))
	}
	return t
}

// requestedSince reports whether a navigation was requested in the main
// frame since s0.
func (s navState) requestedSince(s0 navState) bool { return s.requested > s0.requested }

// loadSettled reports whether the short wait for the load event is over.
func (s navState) loadSettled(now time.Time) bool {
	return s.pending != "" || s.load || (s.dcl && now.Sub(s.dclAt) >= settleLoad) || s.parseLapsed()
}

// moved reports whether a navigation started or committed since s0.
func (s navState) moved(s0 navState) bool {
	return s.started > s0.started || s.committed > s0.committed
}

// opened reports whether the tab opened a new tab since s0.
func (s navState) opened(s0 navState) bool { return s.popups > s0.popups }
