package contract

import (
	"context"
	"time"
)

// Screencaster is implemented by browsers a person can watch and drive
// (package liveview): the current tab's screen as it repaints, what the
// screen cannot show (a native dialog, a file chooser, a tab switch), and a
// person's own mouse and keys. The loop never calls it; a live view does,
// and only between the loop's steps does a person's input reach the page.
type Screencaster interface {
	// Screencast sends the current tab's frames to frame and what they
	// cannot show to event, following the current tab when it changes,
	// until ctx ends; then it stops the cast in the browser and returns
	// ctx's error, or earlier an error that ends the cast for good (the
	// browser closed). Both callbacks are called from one goroutine and
	// must return quickly: a slow one holds the next frame, never a page
	// call. Chromium paints a frame only when the page changes; the first
	// frame of each tab comes at once.
	Screencast(ctx context.Context, o ScreencastOptions, frame func(ScreenFrame), event func(ScreenEvent)) error
	// PersonInput dispatches one input of a person to the current tab, as
	// trusted input (what a physical mouse and keyboard would do). The
	// browser's own limits (where pages may go, what may be sent) hold for
	// it as for any request of the page.
	PersonInput(ctx context.Context, in PersonInput) error
}

// ScreencastOptions shape a screencast. Zero values take the defaults.
type ScreencastOptions struct {
	// Quality is the JPEG quality, 1 to 100; 60 if 0.
	Quality int
	// MaxWidth and MaxHeight bound a frame in pixels; the viewport's own
	// size if 0.
	MaxWidth, MaxHeight int
}

// ScreenFrame is one frame of a screencast: the tab as it was painted.
type ScreenFrame struct {
	// JPEG is the image.
	JPEG []byte
	// Tab is the id of the tab it shows (t1, t2, ...), as the model names
	// tabs.
	Tab string
	// Width and Height are the viewport's size in CSS pixels: a point of
	// the frame at (x, y) of a frame w pixels wide is at (x*Width/w, ...)
	// in the page, which is where PersonInput takes its coordinates.
	Width, Height float64
	// ScrollX and ScrollY are the page's scroll offsets when painted.
	ScrollX, ScrollY float64
	// At is when Chromium painted it.
	At time.Time
}

// The kinds of ScreenEvent.
const (
	// ScreenTab: the cast now shows another tab (Tab); Text is its URL.
	ScreenTab = "tab"
	// ScreenNavigated: the tab's main frame went to a new document; Text
	// is its URL.
	ScreenNavigated = "navigated"
	// ScreenDialog: the page opened a native dialog (alert, confirm,
	// prompt, beforeunload), which the screen does not show; Text says
	// what it asked and how the browser answered it.
	ScreenDialog = "dialog"
	// ScreenFileChooser: the page opened a file chooser, which the
	// screen does not show.
	ScreenFileChooser = "file_chooser"
	// ScreenPopup: a person's click opened a <select>'s list, which a
	// headless screen does not paint; Options are its choices, Text the
	// one chosen now.
	ScreenPopup = "select"
	// ScreenTyped: a person's keys went into a field, which Text names
	// as a snapshot does (textbox "Verification code"); never what was
	// typed. Told once for each field a person's click or Tab moved to.
	ScreenTyped = "typed"
)

// ScreenEvent is something a screencast cannot show.
type ScreenEvent struct {
	Kind    string   `json:"kind"` // ScreenTab, ScreenNavigated, ...
	Tab     string   `json:"tab"`
	Text    string   `json:"text,omitempty"`
	Options []string `json:"options,omitempty"` // ScreenPopup's choices
}

// The kinds of PersonInput.
const (
	InputMouseMove    = "mousemove"
	InputMouseDown    = "mousedown"
	InputMouseUp      = "mouseup"
	InputWheel        = "wheel"
	InputKeyDown      = "keydown"
	InputKeyUp        = "keyup"
	InputText         = "text"   // Text inserted as typed (an IME's, or pasted)
	InputSelectOption = "select" // Text chosen in the <select> a ScreenPopup showed
)

// PersonInput is one input of a person, in the page's CSS pixels.
type PersonInput struct {
	Kind string `json:"kind"` // one of the Input kinds
	// X and Y are where the pointer is, for the mouse kinds and wheel.
	X float64 `json:"x,omitempty"`
	Y float64 `json:"y,omitempty"`
	// Button is left, middle or right; Clicks the click count (2 for a
	// double click's second press).
	Button string `json:"button,omitempty"`
	Clicks int    `json:"clicks,omitempty"`
	// DeltaX and DeltaY are a wheel's turn in CSS pixels.
	DeltaX float64 `json:"dx,omitempty"`
	DeltaY float64 `json:"dy,omitempty"`
	// Key and Code are the DOM's KeyboardEvent.key and .code of a key
	// kind; Text is what the key types ("" for a key that types nothing)
	// or, for InputText, the text.
	Key  string `json:"key,omitempty"`
	Code string `json:"code,omitempty"`
	Text string `json:"text,omitempty"`
	// Modifiers: Alt 1, Ctrl 2, Meta 4, Shift 8.
	Modifiers int `json:"mods,omitempty"`
}

// PersonRecorder is implemented by a Screencaster that can also say what a
// person's input acted on, as a snapshot names it, for the record of a
// takeover (package liveview turns it into the steps a routine can redo).
type PersonRecorder interface {
	// PersonAct dispatches in as PersonInput does and names its target:
	// for a press of the mouse or a choice in a select, the control under
	// the pointer (before the input acts, which may leave the page); for a
	// key or text, the focused element, and, when it is a field, its value
	// as the input left it. A target it cannot name is the zero
	// PersonTarget; only the dispatch's failure is an error.
	PersonAct(ctx context.Context, in PersonInput) (PersonTarget, error)
}

// PersonTarget is the element a person's input acted on.
type PersonTarget struct {
	// Role and Name are the element's role and accessible name as a
	// snapshot shows them (button, "Next"); empty when nothing there is a
	// control a snapshot would act on.
	Role, Name string
	// Ref is its ref in the latest snapshot of its document, when it has
	// one.
	Ref string
	// URL is the address of its document.
	URL string
	// Field says it takes text; Multiline that Enter types in it (a
	// textarea, an editable element).
	Field, Multiline bool
	// Value is a field's value after a key or text (HasValue set): what
	// the person's typing made it. It is the person's, never to be
	// logged or shown to a model.
	Value    string
	HasValue bool
}
