package browser

import (
	"bytes"
	"context"
	"image/jpeg"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
)

// castLog collects a screencast's frames and events.
type castLog struct {
	mu     sync.Mutex
	frames []contract.ScreenFrame
	events []contract.ScreenEvent
	moved  chan struct{} // closed and replaced at each frame or event
}

func newCastLog() *castLog { return &castLog{moved: make(chan struct{})} }

func (c *castLog) frame(f contract.ScreenFrame) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.frames = append(c.frames, f)
	close(c.moved)
	c.moved = make(chan struct{})
}

func (c *castLog) event(e contract.ScreenEvent) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.events = append(c.events, e)
	close(c.moved)
	c.moved = make(chan struct{})
}

// wait waits within d until ok holds of the log.
func (c *castLog) wait(t *testing.T, what string, d time.Duration, ok func(c *castLog) bool) {
	t.Helper()
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		done, moved := ok(c), c.moved
		c.mu.Unlock()
		if done {
			return
		}
		select {
		case <-moved:
		case <-deadline.C:
			c.mu.Lock()
			defer c.mu.Unlock()
			t.Fatalf("no %s within %s; events %+v, %d frames", what, d, c.events, len(c.frames))
		}
	}
}

func (c *castLog) has(kind, text string) bool {
	for _, e := range c.events {
		if e.Kind == kind && strings.Contains(e.Text, text) {
			return true
		}
	}
	return false
}

// TestScreencast: the current tab's frames come at once and on every
// repaint, JPEGs of the viewport's size; the cast follows a switch to
// another tab, tells a native dialog, and stops when its ctx ends.
func TestScreencast(t *testing.T) {
	t.Parallel()
	b := newTab(t)
	url := serve(t, map[string]string{
		"/":      `<title>one</title><h1>One</h1>`,
		"/alert": `<title>two</title><button onclick="alert('are you there?')">Ask</button>`,
	})
	if _, err := b.Do(tctx(t), contract.Action{Name: contract.ActGoto, URL: url + "/"}); err != nil {
		t.Fatal(err)
	}
	log := newCastLog()
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	go func() { ended <- b.Screencast(ctx, contract.ScreencastOptions{}, log.frame, log.event) }()
	log.wait(t, "first frame", 20*time.Second, func(c *castLog) bool { return len(c.frames) > 0 })
	log.mu.Lock()
	f := log.frames[0]
	log.mu.Unlock()
	img, err := jpeg.Decode(bytes.NewReader(f.JPEG))
	if err != nil {
		t.Fatalf("a frame is not a JPEG: %v", err)
	}
	if f.Tab != "t1" || f.Width != 1280 || f.Height != 900 || img.Bounds().Dx() != 1280 {
		t.Errorf("frame of tab %s, %gx%g CSS px, %d px wide; want t1, 1280x900, 1280", f.Tab, f.Width, f.Height, img.Bounds().Dx())
	}
	// Another tab becomes current: the cast follows it.
	if _, err := b.NewTab(tctx(t)); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Do(tctx(t), contract.Action{Name: contract.ActGoto, URL: url + "/alert"}); err != nil {
		t.Fatal(err)
	}
	log.wait(t, "a frame of the new tab", 20*time.Second, func(c *castLog) bool {
		return c.has(contract.ScreenTab, "") && len(c.frames) > 0 && c.frames[len(c.frames)-1].Tab == "t2"
	})
	// A native dialog, which the screen does not show, is told.
	ref := refOf(t, snapshot(t, b), `button "Ask"`)
	if _, err := b.Do(tctx(t), contract.Action{Name: contract.ActClick, Ref: ref}); err != nil {
		t.Fatal(err)
	}
	log.wait(t, "the dialog", 20*time.Second, func(c *castLog) bool { return c.has(contract.ScreenDialog, "are you there?") })
	cancel()
	select {
	case err := <-ended:
		if err != context.Canceled {
			t.Errorf("Screencast returned %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Screencast did not return after its ctx ended")
	}
}

// TestPersonInput: a person's clicks, keys and text reach the page as
// trusted input; a press on a <select> tells its options instead of
// opening a list the screen would not show, and the choice comes back; the
// field typed into is named, what was typed never.
func TestPersonInput(t *testing.T) {
	t.Parallel()
	b := newTab(t)
	url := servePage(t, `<style>body{margin:0} #f{position:absolute;left:10px;top:10px;width:200px;height:30px}
		#s{position:absolute;left:10px;top:80px;width:200px;height:30px}</style>
		<label>Code <input id="f"></label>
		<label>Size <select id="s"><option>Small</option><option>Large</option></select></label>
		<script>window.trusted = []; addEventListener('keydown', (e) => trusted.push(e.isTrusted));
		document.getElementById('s').addEventListener('change', () => window.changed = true);</script>`)
	if _, err := b.Do(tctx(t), contract.Action{Name: contract.ActGoto, URL: url}); err != nil {
		t.Fatal(err)
	}
	log := newCastLog()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		_ = b.Screencast(ctx, contract.ScreencastOptions{}, log.frame, log.event)
	}()
	defer func() { cancel(); <-ended }()
	log.wait(t, "first frame", 20*time.Second, func(c *castLog) bool { return len(c.frames) > 0 })
	in := func(p contract.PersonInput) {
		t.Helper()
		if err := b.PersonInput(tctx(t), p); err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
	}
	in(contract.PersonInput{Kind: contract.InputMouseDown, X: 50, Y: 25, Button: "left", Clicks: 1})
	in(contract.PersonInput{Kind: contract.InputMouseUp, X: 50, Y: 25, Button: "left", Clicks: 1})
	for _, k := range "42" {
		in(contract.PersonInput{Kind: contract.InputKeyDown, Key: string(k), Text: string(k)})
		in(contract.PersonInput{Kind: contract.InputKeyUp, Key: string(k)})
	}
	in(contract.PersonInput{Kind: contract.InputKeyDown, Key: "Backspace"})
	in(contract.PersonInput{Kind: contract.InputKeyUp, Key: "Backspace"})
	in(contract.PersonInput{Kind: contract.InputText, Text: "7 9"})
	got, err := b.Eval(tctx(t), `[document.getElementById('f').value, trusted.every(Boolean) && trusted.length > 0]`)
	if err != nil {
		t.Fatal(err)
	}
	if v := got.([]any); v[0] != "47 9" || v[1] != true {
		t.Errorf("the field holds %q, trusted keys %v; want 47 9, true", v[0], v[1])
	}
	log.wait(t, "the field typed into", 10*time.Second, func(c *castLog) bool { return c.has(contract.ScreenTyped, `textbox "Code"`) })
	for _, e := range log.events {
		if strings.Contains(e.Text, "47") && e.Text != url { // the page's URL may hold 47 (its port)
			t.Errorf("an event tells what was typed: %+v", e)
		}
	}
	in(contract.PersonInput{Kind: contract.InputMouseDown, X: 50, Y: 95, Button: "left", Clicks: 1})
	log.wait(t, "the select's options", 10*time.Second, func(c *castLog) bool {
		for _, e := range c.events {
			if e.Kind == contract.ScreenPopup && strings.Join(e.Options, ",") == "Small,Large" && e.Text == "Small" {
				return true
			}
		}
		return false
	})
	in(contract.PersonInput{Kind: contract.InputSelectOption, X: 50, Y: 95, Text: "Large"})
	got, err = b.Eval(tctx(t), `[document.getElementById('s').value, window.changed === true]`)
	if err != nil {
		t.Fatal(err)
	}
	if v := got.([]any); v[0] != "Large" || v[1] != true {
		t.Errorf("the select holds %v, change fired %v", v[0], v[1])
	}
}
