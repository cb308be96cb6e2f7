package contract

// ConsoleEntry is one console message or uncaught exception of the page.
type ConsoleEntry struct {
	Level string `json:"level"` // log, info, warning, error, debug, exception
	Text  string `json:"text"`
	URL   string `json:"url,omitempty"`
	Time  int64  `json:"t"` // Unix milliseconds
}

// NetEntry is one network request of the page.
type NetEntry struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	Status int    `json:"status,omitempty"`
	Type   string `json:"type,omitempty"` // Document, Script, XHR, Fetch, …
	MIME   string `json:"mime,omitempty"`
	Start  int64  `json:"t"`    // Unix milliseconds
	MS     int64  `json:"ms"`   // until the response finished or failed
	Size   int64  `json:"size"` // encoded bytes received
	Error  string `json:"error,omitempty"`
	// Headers are kept for HAR only (never in trace.jsonl).
	RequestHeaders  map[string]string `json:"-"`
	ResponseHeaders map[string]string `json:"-"`
}

// Activity is what a browser recorded since it was last asked: the
// console messages and network requests of one step, for a trace. Package
// browser implements it (Browser.TakeActivity) once recording is on.
type Activity interface {
	TakeActivity() ([]ConsoleEntry, []NetEntry)
}

// BlockedRequest is a request the browser stopped before it left, because
// it would have written to a site (a read-only browser: a form that
// posts, a fetch or XHR with POST, PUT, PATCH or DELETE). It records what
// would have been sent.
type BlockedRequest struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	Type   string `json:"type,omitempty"` // Document, XHR, Fetch, …
	// Payload is the body that would have been sent, as text (binary
	// parts described, long bodies cut).
	Payload string `json:"payload,omitempty"`
	Time    int64  `json:"t"` // Unix milliseconds
}

// BlockedLog is implemented by a browser that stops writes: it returns
// the requests it stopped since it was last asked, and forgets them.
// Package trace records them with each step.
type BlockedLog interface {
	TakeBlocked() []BlockedRequest
}
