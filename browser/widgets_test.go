package browser

import (
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/eval/sites"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/tier"
)

// The widget gallery of the eval harness, driven with the action API to
// each widget's goal state. The refs come from the snapshot text, found by
// role and name as a model would.

// gallery serves a fresh widgets site for the test.
func gallery(t *testing.T) (*sites.Widgets, string) {
	t.Helper()
	g := sites.NewWidgets()
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	return g, srv.URL
}

// ref returns the ref of the element with the role and exact name.
func ref(t *testing.T, s contract.Snapshot, role, name string) string {
	t.Helper()
	r, ok := modelserver.FindRef(s.Text, role, name)
	if !ok {
		t.Fatalf("no %s %q in the snapshot of %s:\n%s", role, name, s.URL, s.Text)
	}
	return r
}

// refContains returns the ref of the element with the role whose name
// contains substr.
func refContains(t *testing.T, s contract.Snapshot, role, substr string) string {
	t.Helper()
	r, ok := modelserver.FindRefContains(s.Text, role, substr)
	if !ok {
		t.Fatalf("no %s with %q in its name in the snapshot of %s:\n%s", role, substr, s.URL, s.Text)
	}
	return r
}

// wantResult waits for the widget page to report the value to the site.
func wantResult(t *testing.T, g *sites.Widgets, widget, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for g.Results()[widget] != want {
		if time.Now().After(deadline) {
			t.Fatalf("result %s = %q, want %q (results %v)", widget, g.Results()[widget], want, g.Results())
		}
		<-tick.C
	}
}

func wantText(t *testing.T, s contract.Snapshot, text string) {
	t.Helper()
	if !strings.Contains(s.Text, text) {
		t.Errorf("the snapshot of %s has no %q:\n%s", s.URL, text, s.Text)
	}
}

func TestWidgetTabs(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	g, base := gallery(t)
	s := open(t, shared, base+"/tabs")
	if strings.Contains(s.Text, "Battery life") {
		t.Errorf("a hidden tab panel shows:\n%s", s.Text)
	}
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "tab", "Specifications")})
	wantResult(t, g, "tabs", "Specifications")
	s = snapshot(t, shared)
	wantText(t, s, "Battery life: 32 hours")
	wantText(t, s, `tab "Specifications" selected`)
}

func TestWidgetAccordion(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	g, base := gallery(t)
	s := open(t, shared, base+"/accordion")
	wantText(t, s, `button "Do you ship abroad?" collapsed`)
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Do you ship abroad?")})
	wantResult(t, g, "accordion", "Do you ship abroad?")
	s = snapshot(t, shared)
	wantText(t, s, "We ship to 28 countries")
	wantText(t, s, `button "Do you ship abroad?" expanded`)
}

func TestWidgetHoverMenu(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	g, base := gallery(t)
	s := open(t, shared, base+"/menu")
	if _, ok := modelserver.FindRef(s.Text, "link", "Laptops"); ok {
		t.Fatalf("the closed menu's links show:\n%s", s.Text)
	}
	out := do(t, shared, contract.Action{Name: contract.ActHover, Ref: ref(t, s, "button", "Products")})
	if !strings.HasPrefix(out, `hovered over button "Products"`) {
		t.Errorf("hover outcome = %q", out)
	}
	s = snapshot(t, shared)
	out = do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "link", "Laptops")})
	if !strings.Contains(out, "navigated to "+base+"/menu/laptops") {
		t.Errorf("click outcome = %q", out)
	}
	wantResult(t, g, "menu", "Laptops")
}

func TestWidgetDatePicker(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	g, base := gallery(t)
	s := open(t, shared, base+"/datepicker")
	if strings.Contains(s.Text, "Next month") {
		t.Errorf("the closed calendar shows:\n%s", s.Text)
	}
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Open calendar")})
	s = snapshot(t, shared)
	wantText(t, s, "March 2026")
	next := ref(t, s, "button", "Next month")
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: next})
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: next})
	s = snapshot(t, shared)
	wantText(t, s, "May 2026")
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "May 14, 2026")})
	wantResult(t, g, "datepicker", "2026-05-14")
	s = snapshot(t, shared)
	wantText(t, s, `textbox "Check-in date" value="2026-05-14"`)
	if strings.Contains(s.Text, "Next month") {
		t.Errorf("the calendar did not close:\n%s", s.Text)
	}
}

func TestWidgetAutocomplete(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	g, base := gallery(t)
	s := open(t, shared, base+"/autocomplete")
	city := ref(t, s, "combobox", "Destination city")
	// Typing shows the suggestions as options.
	do(t, shared, contract.Action{Name: contract.ActType, Ref: city, Text: "Li"})
	s = snapshot(t, shared)
	ref(t, s, "option", "Lisbon, Portugal")
	ref(t, s, "option", "Lima, Peru")
	do(t, shared, contract.Action{Name: contract.ActPress, Key: "Escape"})
	if s = snapshot(t, shared); strings.Contains(s.Text, "Lima, Peru") {
		t.Fatalf("Escape did not close the suggestions:\n%s", s.Text)
	}
	// select on the combobox types and picks.
	out := do(t, shared, contract.Action{Name: contract.ActSelect, Ref: city, Option: "Lisbon"})
	if !strings.Contains(out, `typed "Lisbon" into combobox "Destination city"`) || !strings.Contains(out, `clicked option "Lisbon, Portugal"`) {
		t.Errorf("select outcome = %q", out)
	}
	wantResult(t, g, "autocomplete", "Lisbon, Portugal")
	s = snapshot(t, shared)
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Search flights")})
	wantResult(t, g, "autocomplete_search", "Lisbon, Portugal")
}

func TestWidgetSlider(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	g, base := gallery(t)
	s := open(t, shared, base+"/slider")
	vol := ref(t, s, "slider", "Volume")
	wantText(t, s, `slider "Volume" value="30"`)
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: vol})
	do(t, shared, contract.Action{Name: contract.ActPress, Key: "End"})
	wantResult(t, g, "slider", "100")
	do(t, shared, contract.Action{Name: contract.ActPress, Key: "ArrowLeft"})
	wantResult(t, g, "slider", "90")
	wantText(t, snapshot(t, shared), `slider "Volume" value="90"`)
}

func TestWidgetModal(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	g, base := gallery(t)
	s := open(t, shared, base+"/modal")
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Unsubscribe from all emails")})
	s = snapshot(t, shared)
	wantText(t, s, `dialog "Unsubscribe from all emails?"`)
	confirm := ref(t, s, "button", "Confirm")
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActClick, Ref: confirm})
	if !isActionError(err) || !strings.Contains(err.Error(), "disabled") {
		t.Errorf("click on the disabled Confirm: %v", err)
	}
	do(t, shared, contract.Action{Name: contract.ActType, Ref: ref(t, s, "textbox", "Type UNSUBSCRIBE to confirm"), Text: "UNSUBSCRIBE"})
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: confirm})
	wantResult(t, g, "modal", "unsubscribed")
	wantText(t, snapshot(t, shared), "You are unsubscribed from all emails.")
}

func TestWidgetIframeForm(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	g, base := gallery(t)
	s := open(t, shared, base+"/iframe")
	wantText(t, s, `iframe "Contact form"`)
	do(t, shared, contract.Action{Name: contract.ActType, Ref: ref(t, s, "textbox", "Your email"), Text: "ann@example.com"})
	do(t, shared, contract.Action{Name: contract.ActType, Ref: ref(t, s, "textbox", "Message"), Text: "Hello from the agent"})
	out := do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Send message")})
	if strings.Contains(out, "navigated to") {
		t.Errorf("a frame's navigation was reported as the page's: %q", out)
	}
	wantResult(t, g, "iframe", "ann@example.com")
	// As the loop does, the wait is told what the model last saw.
	do(t, shared, contract.Action{Name: contract.ActWaitFor, Text: "We will reply to ann@example.com", Seen: s.Text})
	if c := g.Contacts(); len(c) != 1 || c[0].Message != "Hello from the agent" {
		t.Errorf("contacts = %+v", c)
	}
}

func TestWidgetShadowDOM(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	g, base := gallery(t)
	s := open(t, shared, base+"/shadow")
	wantText(t, s, "Spring offer")
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Reveal code")})
	out := do(t, shared, contract.Action{Name: contract.ActWaitFor, Text: "SPRING-7431", Seen: s.Text})
	if !strings.Contains(out, "SPRING-7431") {
		t.Errorf("wait_for outcome = %q", out)
	}
	wantResult(t, g, "shadow", "revealed")
	wantText(t, snapshot(t, shared), "Your code: SPRING-7431")
}

func TestWidgetInfiniteFeed(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	g, base := gallery(t)
	s := open(t, shared, base+"/feed")
	want := "Post 27: " + sites.FeedTitle(27)
	for i := 0; !strings.Contains(s.Text, want); i++ {
		if i == 30 {
			t.Fatalf("post 27 never showed:\n%s", s.Text)
		}
		do(t, shared, contract.Action{Name: contract.ActScroll, Direction: "down"})
		s = snapshot(t, shared)
	}
	// The Like button under the post's heading.
	_, after, _ := strings.Cut(s.Text, want)
	r, ok := modelserver.FindRef(after, "button", "Like")
	if !ok {
		t.Fatalf("no Like button after %q:\n%s", want, s.Text)
	}
	do(t, shared, contract.Action{Name: contract.ActScroll, Ref: r})
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: r})
	wantResult(t, g, "feed", sites.FeedTitle(27))
	if st := g.State(); st["feed_pages"].(float64) < 3 {
		t.Errorf("feed pages loaded: %v", st["feed_pages"])
	}
}

func TestWidgetEditor(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	g, base := gallery(t)
	s := open(t, shared, base+"/editor")
	do(t, shared, contract.Action{Name: contract.ActType, Ref: ref(t, s, "textbox", "Note"), Text: "Buy milk and bread"})
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Save note")})
	wantResult(t, g, "editor", "Buy milk and bread")
	wantText(t, snapshot(t, shared), `textbox "Note" value="Buy milk and bread"`)
}

func TestWidgetUpload(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	g, base := gallery(t)
	dir := t.TempDir()
	for name, body := range map[string]string{"photo.txt": "hello photo", "a.txt": "A", "b.txt": "BB"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	withUploadDir(t, shared, dir)
	s := open(t, shared, base+"/upload")
	out := do(t, shared, contract.Action{Name: contract.ActUpload, Ref: ref(t, s, "button", "Profile photo"), Files: []string{"photo.txt"}})
	if !strings.HasPrefix(out, `uploaded "photo.txt" into button "Profile photo"`) {
		t.Errorf("upload outcome = %q", out)
	}
	// The documents input is hidden; its styled button stands for it.
	docs := ref(t, s, "button", "Choose documents")
	do(t, shared, contract.Action{Name: contract.ActUpload, Ref: docs, Files: []string{"a.txt", "b.txt"}})
	s = snapshot(t, shared)
	wantText(t, s, "Photo chosen: photo.txt (11 bytes).")
	wantText(t, s, "a.txt (1 bytes), b.txt (2 bytes)")
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Save profile")})
	wantResult(t, g, "upload", "photo.txt:hello photo")
	wantResult(t, g, "upload_docs", "a.txt,b.txt")
}

// withUploadDir lets b upload from dir during the test.
func withUploadDir(t *testing.T, b *Browser, dir string) {
	old := b.opts.UploadDir
	b.opts.UploadDir = dir
	t.Cleanup(func() { b.opts.UploadDir = old })
}

func TestWidgetDrag(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	g, base := gallery(t)
	s := open(t, shared, base+"/drag")
	card := ref(t, s, "button", "Fix the login page")
	out := do(t, shared, contract.Action{Name: contract.ActDrag, Ref: card, ToRef: ref(t, s, "button", "Add a card to Done")})
	if !strings.Contains(out, `dragged button "Fix the login page" [ref=`+card+`] onto button "Add a card to Done"`) {
		t.Errorf("drag outcome = %q", out)
	}
	wantResult(t, g, "drag", "Fix the login page -> Done")
	// The handle follows mouse events only.
	handle := ref(t, s, "slider", "Slide to confirm")
	do(t, shared, contract.Action{Name: contract.ActDrag, Ref: handle, DX: 300})
	wantResult(t, g, "slide", "confirmed")
	wantText(t, snapshot(t, shared), "Order confirmed.")
}

func TestWidgetListbox(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	g, base := gallery(t)
	s := open(t, shared, base+"/listbox")
	ship := refContains(t, s, "combobox", "Shipping method")
	out := do(t, shared, contract.Action{Name: contract.ActSelect, Ref: ship, Option: "Express"})
	if !strings.Contains(out, `clicked option "Express (next day)"`) {
		t.Errorf("select outcome = %q", out)
	}
	wantResult(t, g, "listbox_combo", "Express (next day)")
	s = snapshot(t, shared)
	wantText(t, s, `combobox "Shipping method Express (next day)" collapsed`)
	contact := ref(t, s, "listbox", "Preferred contact")
	ref(t, s, "option", "Text message")
	do(t, shared, contract.Action{Name: contract.ActSelect, Ref: contact, Option: "phone"})
	wantResult(t, g, "listbox", "Phone")
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActSelect, Ref: contact, Option: "Carrier pigeon"})
	if !isActionError(err) || !strings.Contains(err.Error(), `"Email", "Phone", "Text message"`) {
		t.Errorf("select of a missing option: %v", err)
	}
}

func TestWidgetCookieBanner(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	g, base := gallery(t)
	s := open(t, shared, base+"/cookies")
	buy := ref(t, s, "button", "Buy now")
	accept := ref(t, s, "button", "Accept all cookies")
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActClick, Ref: buy})
	var ae *contract.ActionError
	if !errors.As(err, &ae) || !strings.Contains(ae.Msg, `click on button "Buy now" [ref=`+buy+`] not done: it is covered by `) ||
		!strings.Contains(ae.Msg, `"Cookie consent"`) || !strings.Contains(ae.Msg, `button "Accept all cookies" [ref=`+accept+`]`) {
		t.Errorf("click under the banner: %v", err)
	}
	if _, ok := g.Results()["buy"]; ok {
		t.Errorf("the covered button was clicked")
	}
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: accept})
	wantResult(t, g, "cookies", "accepted")
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: buy})
	wantResult(t, g, "buy", "bought")
}

func TestWidgetSettings(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	g, base := gallery(t)
	s := open(t, shared, base+"/settings")
	offers := ref(t, s, "checkbox", "Email me offers")
	dark := ref(t, s, "checkbox", "Dark mode")
	notif := ref(t, s, "switch", "Notifications")
	pro := ref(t, s, "radio", "Pro")
	if out := do(t, shared, contract.Action{Name: contract.ActCheck, Ref: offers}); !strings.Contains(out, "is already checked") {
		t.Errorf("check of a checked box: %q", out)
	}
	if out := do(t, shared, contract.Action{Name: contract.ActUncheck, Ref: offers}); !strings.HasPrefix(out, `unchecked checkbox "Email me offers"`) {
		t.Errorf("uncheck: %q", out)
	}
	do(t, shared, contract.Action{Name: contract.ActCheck, Ref: dark})
	do(t, shared, contract.Action{Name: contract.ActCheck, Ref: notif})
	if out := do(t, shared, contract.Action{Name: contract.ActCheck, Ref: notif}); !strings.Contains(out, "is already checked") {
		t.Errorf("second check of the switch: %q", out)
	}
	do(t, shared, contract.Action{Name: contract.ActCheck, Ref: pro})
	if _, err := shared.Do(tctx(t), contract.Action{Name: contract.ActUncheck, Ref: pro}); !isActionError(err) || !strings.Contains(err.Error(), "cannot be unchecked") {
		t.Errorf("uncheck of a radio: %v", err)
	}
	s = snapshot(t, shared)
	wantText(t, s, `checkbox "Dark mode" checked`)
	wantText(t, s, `switch "Notifications" checked`)
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Save settings")})
	wantResult(t, g, "settings", "offers=false dark=true notifications=true plan=pro")
}
