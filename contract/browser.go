package contract

import (
	"context"
	"encoding/json"
)

// Browser is what the loop needs from a web browser: a description of the
// page for the model, and a way to act on it. Package browser implements it
// with Chromium over CDP; an embedder can supply its own.
//
// Both methods must return promptly once ctx is done. The loop owns every
// deadline; an implementation adds no timers of its own.
type Browser interface {
	// Snapshot describes the current page. Elements the model can act on
	// carry refs ("e12") that later actions name.
	Snapshot(ctx context.Context) (Snapshot, error)
	// Do performs one action and says what happened. It checks the action
	// with Validate before anything is sent to the page.
	//
	// An error the model can correct (an unknown or stale ref, an element
	// that cannot be typed into, a URL that does not load) is an
	// *ActionError: the loop hands its message to the model as the tool's
	// result and goes on. Any other error means the browser is unusable and
	// ends the task with BROWSER_ERROR.
	Do(ctx context.Context, a Action) (Outcome, error)
}

// Outcome is what an action did.
type Outcome struct {
	// Text is a short, human-readable account for the model ("clicked
	// button \"Sign in\"; navigated to https://x.org/home").
	Text string
	// Navigated is set when the action loaded a new document, changed the
	// page's URL or made another tab the current one: the refs of the
	// latest snapshot no longer hold, and the loop runs no further call of
	// the model's reply.
	Navigated bool
}

// Snapshot is the page as the model sees it.
type Snapshot struct {
	URL   string
	Title string
	// Document names the document the snapshot read (its tab and its
	// load): two snapshots with the same Document are of one document, in
	// which an element keeps its ref. Empty when the browser cannot tell.
	Document string
	// Text is the indented outline of the visible page in which every
	// actionable element stands on its own line with its role, accessible
	// name, state and [ref=ID].
	Text string
	// Notices are things that happened since the previous snapshot which
	// the page itself no longer shows, such as a JavaScript dialog that was
	// answered.
	Notices []string
	// HumanCheck names a check only a person may pass that the page shows
	// (a CAPTCHA such as "reCAPTCHA", "hCaptcha", "Cloudflare Turnstile", a
	// "Cloudflare challenge" page, a page asking to verify you are human),
	// or is empty. Text also says so on its first line.
	HumanCheck string
	// HumanCheckBlocks is set when the check stands in front of the page
	// (a challenge page, a page with little else on it): nothing else can
	// be done before a person passes it.
	HumanCheckBlocks bool
	// PageTools are the tools the page's documents offer (WebMCP), which
	// page_tool calls; Text lists them too.
	PageTools []PageTool
}

// PageTool is a tool a page offers (WebMCP): registered by a script, or
// declared by a form.
type PageTool struct {
	Name        string
	Description string
	// InputSchema is the JSON Schema its arguments must match; empty when
	// it takes none.
	InputSchema json.RawMessage
	// ReadOnly is the page's hint that the tool changes nothing.
	ReadOnly bool
	// Origin is the origin (scheme://host:port) of the document that
	// offers it: the top page's, or a frame's.
	Origin string
	// Form is set for a tool a form declares.
	Form bool
}

// PageStater is implemented by browsers that can fingerprint the page
// cheaply. The loop takes a fingerprint before each action of a reply, so
// that a page that changes between the actions of one reply counts as
// progress, not repetition. Equal pages must give equal fingerprints.
type PageStater interface {
	PageState(ctx context.Context) (string, error)
}

// Screenshotter is implemented by browsers that can capture the viewport.
// The loop uses it for the screenshot tool (offered with vision) and the
// eval harness for reports.
type Screenshotter interface {
	Screenshot(ctx context.Context) ([]byte, error) // PNG
}

// MarkedScreenshotter is implemented by browsers that can capture the
// viewport with the refs in view drawn on it (set-of-mark): each ref's box
// outlined and labelled with the ref. The loop sends it with each
// observation under vision marks.
type MarkedScreenshotter interface {
	ScreenshotMarked(ctx context.Context) ([]byte, error) // PNG
}

// RefInView is a ref shown in the viewport, in CSS pixels of the viewport
// (a screenshot's pixels): where its box is and where a click reaches it.
type RefInView struct {
	Ref string
	// Box is x0, y0, x1, y1: the element's box, which may reach out of
	// the viewport.
	Box [4]float64
	// At is the centre of the box's part in view.
	At Point
	// Covered is set when another element is on top at At (a dialog, a
	// banner): a click there does not reach the ref's element.
	Covered bool
}

// Recoverer is implemented by browsers that can bring a page back after an
// abandoned operation or iteration: stop a navigation that never arrives,
// terminate a runaway script, replace a crashed tab. The loop calls it,
// under its own bound, after a timeout; the returned text tells the model
// what was done.
type Recoverer interface {
	Recover(ctx context.Context) (string, error)
}

// Confiner is implemented by browsers that enforce a NavigationPolicy. The
// loop calls Confine before it opens the start URL.
type Confiner interface {
	Confine(p NavigationPolicy) error
}
