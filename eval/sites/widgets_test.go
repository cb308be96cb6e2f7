package sites

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

func TestWidgetPages(t *testing.T) {
	t.Parallel()
	g := NewWidgets()
	c := serve(t, g)
	_, body := c.get("/")
	for _, p := range widgetPages {
		mustContain(t, "gallery", body, `href="`+p.Path+`"`)
		code, page := c.get(p.Path)
		if code != 200 {
			t.Errorf("%s: %d", p.Path, code)
		}
		mustContain(t, p.Path, page, "function report(", "<main>")
		mustNotContain(t, p.Path, page, "http://", "https://")
	}
	for path, want := range map[string]string{
		"/tabs":         `role="tab"`,
		"/accordion":    `aria-expanded="false"`,
		"/menu":         "mouseenter",
		"/datepicker":   "Next month",
		"/autocomplete": "keyup",
		"/slider":       `type="range"`,
		"/modal":        "showModal",
		"/iframe":       `<iframe src="/iframe/form"`,
		"/shadow":       "attachShadow({mode: 'open'})",
		"/feed":         "/api/feed?page=",
		"/editor":       `contenteditable="true"`,
		"/upload":       `type="file" id="photo"`,
		"/drag":         `draggable="true"`,
		"/listbox":      `aria-haspopup="listbox"`,
		"/cookies":      `class="cookie-banner"`,
		"/settings":     `role="switch"`,
	} {
		_, page := c.get(path)
		mustContain(t, path, page, want)
	}
	// The calendar's display must not override its hidden attribute.
	_, page := c.get("/datepicker")
	mustContain(t, "/datepicker", page, ".cal[hidden]{display:none}")
}

func TestWidgetResults(t *testing.T) {
	t.Parallel()
	g := NewWidgets()
	c := serve(t, g)
	if code := c.postJSON("/api/result", `{"widget":"slider","value":"100"}`); code != 200 {
		t.Fatalf("report: %d", code)
	}
	c.postJSON("/api/result", `{"widget":"slider","value":"40"}`)
	if code := c.postJSON("/api/result", `{"value":"x"}`); code != 400 {
		t.Errorf("report without a widget: %d", code)
	}
	if got := g.Results()["slider"]; got != "40" {
		t.Errorf("slider = %q", got)
	}
	if ev := g.State()["events"].([]any); len(ev) != 2 {
		t.Errorf("events = %v", ev)
	}
	_, body := c.get("/api/results")
	var st map[string]any
	if err := json.Unmarshal([]byte(body), &st); err != nil || st["results"].(map[string]any)["slider"] != "40" {
		t.Errorf("/api/results = %s (%v)", body, err)
	}

	_, body = c.get("/menu/phones")
	mustContain(t, "menu item", body, "<h1>Phones</h1>")
	if g.Results()["menu"] != "Phones" {
		t.Errorf("menu = %q", g.Results()["menu"])
	}
	if code, _ := c.get("/menu/nope"); code != 404 {
		t.Errorf("unknown menu item: %d", code)
	}
}

func TestWidgetFeed(t *testing.T) {
	t.Parallel()
	g := NewWidgets()
	c := serve(t, g)
	var page struct {
		Posts []struct {
			N     int
			Title string
		}
		More bool
	}
	_, body := c.get("/api/feed?page=3")
	if err := json.Unmarshal([]byte(body), &page); err != nil {
		t.Fatal(err)
	}
	if len(page.Posts) != FeedPageSize || page.Posts[6].N != 27 || page.Posts[6].Title != "Lighthouse in fog" || !page.More {
		t.Fatalf("page 3 = %+v", page)
	}
	_, body = c.get("/api/feed?page=5")
	_ = json.Unmarshal([]byte(body), &page)
	if page.More || page.Posts[9].N != 50 {
		t.Fatalf("page 5 = %+v", page)
	}
	if g.State()["feed_pages"] != 5.0 {
		t.Errorf("feed_pages = %v", g.State()["feed_pages"])
	}
	seen := map[string]bool{}
	for n := 1; n <= FeedPosts; n++ {
		if seen[FeedTitle(n)] {
			t.Fatalf("title %q repeats", FeedTitle(n))
		}
		seen[FeedTitle(n)] = true
	}
}

func TestWidgetIframeForm(t *testing.T) {
	t.Parallel()
	g := NewWidgets()
	c := serve(t, g)
	code, _, body := c.post("/iframe/form", url.Values{"email": {"bad"}, "message": {"hi"}})
	if code != 422 || !strings.Contains(body, "Enter a valid email address.") {
		t.Errorf("invalid contact: %d %s", code, body)
	}
	_, _, body = c.post("/iframe/form", url.Values{"email": {"ann@example.com"}, "message": {"Hello"}})
	mustContain(t, "contact sent", body, "We will reply to ann@example.com")
	if cs := g.Contacts(); len(cs) != 1 || cs[0].Message != "Hello" || g.Results()["iframe"] != "ann@example.com" {
		t.Fatalf("contacts = %+v", cs)
	}
}
