package sites

import (
	"strings"
	"testing"
)

func TestWikiPages(t *testing.T) {
	t.Parallel()
	k := NewWiki()
	c := serve(t, k)
	_, body := c.get("/wiki/Troubleshooting")
	mustContain(t, "troubleshooting", body, `<nav class="toc" aria-label="Contents">`, `<a href="#port-in-use">Port already in use</a>`,
		`<section id="port-in-use">`, "lantern serve --port 7421")
	_, body = c.get("/wiki/Configuration")
	mustContain(t, "configuration", body, "<td>port</td><td>7420</td>", `href="/wiki/Plugins"`)
	if code, body := c.get("/wiki/Nope"); code != 404 || !strings.Contains(body, "There is no page called Nope") {
		t.Errorf("missing page: %d", code)
	}
	if v := k.State()["views"].([]any); len(v) != 2 || v[0] != "Troubleshooting" {
		t.Errorf("views = %v", v)
	}
}

func TestWikiSearch(t *testing.T) {
	t.Parallel()
	k := NewWiki()
	c := serve(t, k)
	_, body := c.get("/search?q=cache")
	mustContain(t, "search cache", body, "results for “cache”", `href="/wiki/Configuration#options"`, `href="/wiki/Troubleshooting#slow-builds"`)
	_, body = c.get("/search?q=plugin+api")
	mustContain(t, "search plugin api", body, `href="/wiki/Plugins#writing"`, `href="/wiki/Release_notes#v3-2-0"`)
	_, body = c.get("/search?q=zzzz")
	mustContain(t, "no results", body, "0 results for “zzzz”")
	if s := k.State()["searches"].([]any); len(s) != 3 || s[0] != "cache" {
		t.Errorf("searches = %v", s)
	}
}
