package contract

import (
	"encoding/json"
	"time"
)

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

	ActBox        = "box"         // an element's box in the viewport
	ActReadRegion = "read_region" // the whole text of a region the snapshot left out
	ActOptions    = "options"     // every option of a select, listbox or combobox

	ActPageTool = "page_tool" // call a tool the page offers (WebMCP)
)

// Mouse operations of ActMouse.
const (
	MouseClick       = "click"
	MouseDoubleClick = "double_click"
	MouseRightClick  = "right_click"
	MouseTripleClick = "triple_click" // selects a line or paragraph (vendors' computer tools)
	MouseHover       = "hover"
)

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

// Directions of ActScroll.
var Directions = []string{"up", "down", "left", "right"}

// Anchors are the named points of an element's box that Action.Anchor and
// Action.ToAnchor take: its center (the default), a corner, or the middle
// of an edge.
var Anchors = []string{"center", "top-left", "top-right", "bottom-left", "bottom-right", "left", "right", "top", "bottom"}

// MaxWait is the longest a wait or a wait_for may last.
const MaxWait = 30 * time.Second

// Point is a position in CSS pixels.
type Point struct{ X, Y float64 }

// Action is one browser action requested by the model. Name is one of the
// Act constants; the other fields are used as the action needs them.
// Validate says whether they fit together.
type Action struct {
	Name      string   `json:"name"`
	Ref       string   `json:"ref,omitempty"`       // click, type, select, check, uncheck, hover, scroll (into view), drag (source), upload, wait_for, select_text
	URL       string   `json:"url,omitempty"`       // goto
	Text      string   `json:"text,omitempty"`      // type; wait_for: text to wait for; select_text: text to select (in Ref, or on the page)
	Submit    bool     `json:"submit,omitempty"`    // type: press Enter afterwards
	Option    string   `json:"option,omitempty"`    // select: option label or value (native select, ARIA listbox/combobox)
	Key       string   `json:"key,omitempty"`       // press: "Enter", "Tab", "Control+A"
	Direction string   `json:"direction,omitempty"` // scroll: up, down, left, right
	ToRef     string   `json:"to_ref,omitempty"`    // drag: target element
	DX        int      `json:"dx,omitempty"`        // drag: offset in CSS pixels when ToRef is empty
	DY        int      `json:"dy,omitempty"`
	Files     []string `json:"files,omitempty"` // upload: file names inside the allowed folder
	Op        string   `json:"op,omitempty"`    // tabs: list, switch, close; mouse: click, double_click, right_click, hover
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

	// Tool and Arguments are page_tool's: the page tool's name, as the
	// snapshot lists it, and its arguments, a JSON object.
	Tool      string          `json:"tool,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`

	// Seen is, for wait_for, the text of the latest snapshot the model saw;
	// the loop fills it in. A text it shows counts as appearing only when
	// the page shows it once more. Empty: the page at the call is the
	// baseline.
	Seen string `json:"-"`

	// Origins is set by the loop on a type action whose text carries a
	// secret (or a page_tool whose arguments do): the origins
	// (scheme://host:port) the field's document (the tool's frame) must
	// be on, or the browser refuses to type (to call). SecretNames names the secrets,
	// for the refusal.
	Origins     []string `json:"-"`
	SecretNames []string `json:"-"`
}
