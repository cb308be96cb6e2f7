package contract

import "strings"

// The vendors' own tool sets (--tools native): the model is offered its
// vendor's computer tool instead of webagent's table, and webagent's
// browser carries out what it asks. The wire formats stay in the model
// clients; what crosses this contract is neutral: the tool set the
// request declares (Request.Native), the model's actions as a list
// (ToolCall.Native), its safety checks (ToolCall.SafetyChecks), and the
// results, a short text with a screenshot (Message.Images) and the checks
// a person acknowledged (Message.Acknowledged).

// NativeComputer is the kind of a vendor's computer tool: screenshots in,
// pointer and keyboard actions at pixel coordinates out.
const NativeComputer = "computer"

// NativeBrowser is the kind of a vendor's browser tool: the computer's
// actions, by coordinate or by an element's ref, and the page's structure
// (its outline with refs, its text, a search), navigation and tabs.
const NativeBrowser = "browser"

// NativeTool is a vendor's tool set a request declares.
type NativeTool struct {
	// Kind is NativeComputer.
	Kind string
	// Width and Height are the display's size in pixels: the size of
	// every screenshot the tool returns, and the space of its
	// coordinates.
	Width, Height int
}

// Native action kinds: what a vendor's computer tool may ask, in
// webagent's words. A client maps each vendor's names onto these and
// leaves a name it does not know as it is, which the loop refuses with
// the list of these.
const (
	NativeClick       = "click"        // At, Button (left default, right, middle); Keys held
	NativeDoubleClick = "double_click" // At
	NativeTripleClick = "triple_click" // At
	NativeMove        = "move"         // At
	NativeDrag        = "drag"         // Path: press at the first point, release at the last
	NativeMouseDown   = "mouse_down"   // at the pointer
	NativeMouseUp     = "mouse_up"     // at the pointer
	NativeScroll      = "scroll"       // At, ScrollX, ScrollY in pixels
	NativeType        = "type"         // Text, into the focused element
	NativeKey         = "key"          // Keys: one chord in webagent's names ("Control+A"), Repeat times
	NativeWait        = "wait"         // MS
	NativeScreenshot  = "screenshot"   // nothing but the picture
	NativeZoom        = "zoom"         // Region: a part of the screen at full resolution
	NativeCursor      = "cursor_position"

	// A browser tool's own (NativeBrowser).
	NativeNavigate  = "navigate"  // URL, or "back", "forward", "reload"
	NativeReadPage  = "read_page" // the page's outline with refs; Ref: a part of it
	NativePageText  = "page_text" // the page's text
	NativeFind      = "find"      // Text: what to look for
	NativeFormInput = "form_input"
	NativeScrollTo  = "scroll_to" // Ref into view
	NativeTabs      = "tabs"      // Op: list, switch, close; Tab
)

// NativeActions are the kinds the loop carries out, for messages.
var NativeActions = []string{NativeClick, NativeDoubleClick, NativeTripleClick, NativeMove, NativeDrag, NativeMouseDown,
	NativeMouseUp, NativeScroll, NativeType, NativeKey, NativeWait, NativeScreenshot, NativeZoom, NativeCursor,
	NativeNavigate, NativeReadPage, NativePageText, NativeFind, NativeFormInput, NativeScrollTo, NativeTabs}

// NativeAction is one action of a vendor's computer tool. Coordinates
// are in the display's pixels (NativeTool's Width and Height).
type NativeAction struct {
	Kind string `json:"kind"`
	// Vendor is the action's name in the vendor's tool ("left_click",
	// "keypress"), for the record and for messages.
	Vendor string `json:"vendor,omitempty"`
	At     *Point `json:"at,omitempty"`
	// Ref names an element of the page's outline (a browser tool's
	// target by reference), in place of At.
	Ref     string  `json:"ref,omitempty"`
	URL     string  `json:"url,omitempty"`    // navigate
	Op      string  `json:"op,omitempty"`     // tabs: list, switch, close
	Tab     string  `json:"tab,omitempty"`    // tabs: the tab's id
	Button  string  `json:"button,omitempty"` // click: left (default), right, middle
	Path    []Point `json:"path,omitempty"`   // drag
	ScrollX int     `json:"scroll_x,omitempty"`
	ScrollY int     `json:"scroll_y,omitempty"`
	Text    string  `json:"text,omitempty"` // type; find: the query; form_input: the value
	// Key is a key or chord in webagent's names ("Control+A", "Enter"),
	// translated by the client from the vendor's (xdotool's "ctrl+a",
	// "Return"; a list of keys). For a click, the keys held.
	Key    string `json:"key,omitempty"`
	Repeat int    `json:"repeat,omitempty"` // key: times to press it (0 and 1: once)
	MS     int    `json:"ms,omitempty"`     // wait
	// Region is zoom's rectangle: x0, y0, x1, y1.
	Region []int `json:"region,omitempty"`
}

// ScrollToward sets a scroll's distance from a direction word as vendors'
// tools give it ("up", "down", "left", "right", in any case): dy pixels up
// or down, dx left or right. Another word leaves the action unscrolled,
// which the loop refuses as a scroll of nothing.
func (a *NativeAction) ScrollToward(direction string, dx, dy int) {
	switch strings.ToLower(direction) {
	case "up":
		a.ScrollY = -dy
	case "down":
		a.ScrollY = dy
	case "left":
		a.ScrollX = -dx
	case "right":
		a.ScrollX = dx
	}
}

// BrowserState is what a browser tool's result reports of the browser
// after the call: its tabs.
type BrowserState struct {
	Tabs []TabState `json:"tabs"`
}

// TabState is one tab: its id (as tabs takes it), title and address.
type TabState struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	URL    string `json:"url"`
	Active bool   `json:"active,omitempty"`
}

// SafetyCheck is a vendor's warning about a call (OpenAI's
// pending_safety_checks): the loop asks a person, and a check that
// person allowed is sent back with the result (Message.Acknowledged).
type SafetyCheck struct {
	ID      string `json:"id"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
}
