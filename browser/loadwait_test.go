package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
)

// A page whose document never finishes arriving (its body trickles, or a
// script it waits for never answers) is used once LoadTimeout has passed:
// goto, the snapshot and the actions work on what has arrived, and say the
// page is still loading.
func TestPageThatNeverFinishesLoading(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/trickle":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><title>Trickle</title><button onclick="this.textContent='Done'">Go</button>`+strings.Repeat(" ", 2048))
			w.(http.Flusher).Flush()
		case "/script":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><title>Script</title><p>Before the script</p><script src="/never.js"></script><p>After</p>`)
			return
		case "/never.js":
		}
		select { // hold the response open until the test ends
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := Launch(ctx, Options{LoadTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()

	start := time.Now()
	out, err := b.Do(ctx, agent.Action{Name: agent.ActGoto, URL: srv.URL + "/trickle"})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("goto took %s with a 1s load timeout", took)
	}
	if !strings.Contains(out, "the page is still loading") {
		t.Errorf("goto outcome = %q", out)
	}
	s, err := b.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(s.Notices, "\n"), "the page is still loading") {
		t.Errorf("notices = %q", s.Notices)
	}
	do(t, b, agent.Action{Name: agent.ActClick, Ref: refOf(t, s, `button "Go"`)})
	s, err = b.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	refOf(t, s, `button "Done"`)

	if _, err := b.Do(ctx, agent.Action{Name: agent.ActGoto, URL: srv.URL + "/script"}); err != nil {
		t.Fatal(err)
	}
	s, err = b.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.Text, "Before the script") || strings.Contains(s.Text, "After") {
		t.Errorf("snapshot of a page held by its script:\n%s", s.Text)
	}
}
