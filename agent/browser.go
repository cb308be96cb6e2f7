package agent

import (
	"context"
	"fmt"
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
	// Do performs one action and says what happened.
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
	// Text is the indented outline of the visible page in which every
	// actionable element stands on its own line with its role, accessible
	// name, state and [ref=ID].
	Text string
	// Notices are things that happened since the previous snapshot which
	// the page itself no longer shows, such as a JavaScript dialog that was
	// answered.
	Notices []string
}

// Action names. Each tool offered to the model for the page maps to one.
const (
	ActGoto    = "goto"
	ActClick   = "click"
	ActType    = "type"
	ActSelect  = "select"
	ActCheck   = "check"
	ActUncheck = "uncheck"
	ActPress   = "press"
	ActHover   = "hover"
	ActScroll  = "scroll"
	ActDrag    = "drag"
	ActUpload  = "upload"
	ActBack    = "back"
	ActForward = "forward"
	ActTabs    = "tabs"
	ActWaitFor = "wait_for"
	ActExtract = "extract"

	ActMouse       = "mouse"        // click, double-click, right-click or hover at a point
	ActMousePath   = "mouse_path"   // press, move along points, release
	ActSetSlider   = "set_slider"   // set a slider or range input to a value
	ActMultiSelect = "multi_select" // add and remove options of a multiple select
	ActSelectText  = "select_text"  // select a range of text
	ActWait        = "wait"         // wait a bounded time
)

// Mouse operations of ActMouse.
const (
	MouseClick       = "click"
	MouseDoubleClick = "double_click"
	MouseRightClick  = "right_click"
	MouseHover       = "hover"
)

// Point is a position in CSS pixels.
type Point struct{ X, Y float64 }

// Wait states of ActWaitFor.
const (
	WaitAppear    = "appear"    // the text appears after the call, or the element becomes visible
	WaitDisappear = "disappear" // the text or the element goes away
	WaitEnabled   = "enabled"   // the element becomes enabled
)

// Tab operations of ActTabs.
const (
	TabsList   = "list"
	TabsSwitch = "switch"
	TabsClose  = "close"
)

// Action is one browser action requested by the model. Name is one of the
// Act constants; the other fields are used as the action needs them.
type Action struct {
	Name      string   `json:"name"`
	Ref       string   `json:"ref,omitempty"`       // click, type, select, check, uncheck, hover, scroll (into view), drag (source), upload, wait_for
	URL       string   `json:"url,omitempty"`       // goto
	Text      string   `json:"text,omitempty"`      // type; wait_for: text to wait for
	Submit    bool     `json:"submit,omitempty"`    // type: press Enter afterwards
	Option    string   `json:"option,omitempty"`    // select: option label or value (native select, ARIA listbox/combobox)
	Key       string   `json:"key,omitempty"`       // press: "Enter", "Tab", "Control+A"
	Direction string   `json:"direction,omitempty"` // scroll: up, down, left, right
	ToRef     string   `json:"to_ref,omitempty"`    // drag: target element
	DX        int      `json:"dx,omitempty"`        // drag: offset in CSS pixels when ToRef is empty
	DY        int      `json:"dy,omitempty"`
	Files     []string `json:"files,omitempty"` // upload: file names inside the allowed folder
	Op        string   `json:"op,omitempty"`    // tabs: list, switch, close
	Tab       string   `json:"tab,omitempty"`   // tabs: the tab's id from the list

	// At is a point: in viewport CSS pixels (mouse, drag source), unless
	// Ref is set; then Anchor (default center) and DX, DY place it in the
	// element's box.
	At       *Point   `json:"at,omitempty"`
	Anchor   string   `json:"anchor,omitempty"`    // mouse, drag: a named point of Ref's box
	To       *Point   `json:"to,omitempty"`        // drag: the drop point in viewport CSS pixels
	ToAnchor string   `json:"to_anchor,omitempty"` // drag: a named point of ToRef's box
	Path     []Point  `json:"path,omitempty"`      // mouse_path: viewport points, or offsets from Ref's top-left corner
	Options  []string `json:"options,omitempty"`   // multi_select: options to add
	Remove   []string `json:"remove,omitempty"`    // multi_select: options to remove
	Start    *int     `json:"start,omitempty"`     // select_text: first character offset
	End      *int     `json:"end,omitempty"`       // select_text: offset after the last character
	State    string   `json:"state,omitempty"`     // wait_for: appear, disappear, enabled
	MS       int      `json:"ms,omitempty"`        // wait: milliseconds
	Value    string   `json:"value,omitempty"`     // set_slider: the value

	// Seen is, for wait_for, the text of the latest snapshot the model saw;
	// the loop fills it in. A text it shows counts as appearing only when
	// the page shows it once more. Empty: the page at the call is the
	// baseline.
	Seen string `json:"-"`

	// Origins is set by the loop on a type action whose text carries a
	// secret: the origins (scheme://host:port) the field's document must
	// be on, or the browser refuses to type. SecretNames names the secrets,
	// for the refusal.
	Origins     []string `json:"-"`
	SecretNames []string `json:"-"`
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

// ActionError is an action failure the model can correct. Its message is
// shown to the model as the tool's result. Err, when set, classifies it
// (ErrStaleRef).
type ActionError struct {
	Msg string
	Err error
}

func (e *ActionError) Error() string { return e.Msg }

// Unwrap returns the classifying error, if any.
func (e *ActionError) Unwrap() error { return e.Err }

// ActionErrorf formats an *ActionError.
func ActionErrorf(format string, args ...any) *ActionError {
	return &ActionError{Msg: fmt.Sprintf(format, args...)}
}
