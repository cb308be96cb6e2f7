package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

func TestNavigationsThatDoNotCommit(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Links</title><a href="/empty">No content</a> <a href="/file">Download</a>`)
	})
	mux.HandleFunc("/empty", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("/file", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Disposition", `attachment; filename="report.csv"`)
		w.Header().Set("Content-Type", "text/csv")
		fmt.Fprint(w, "a,b\n1,2\n")
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	s := open(t, shared, srv.URL+"/")
	for _, link := range []string{`link "No content"`, `link "Download"`} {
		do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, link)})
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		got, err := shared.Snapshot(ctx)
		cancel()
		if err != nil || got.Title != "Links" {
			t.Errorf("snapshot after clicking %s: %v, title %q", link, err, got.Title)
		}
	}
	out, err := shared.Do(tctx(t), contract.Action{Name: contract.ActGoto, URL: srv.URL + "/file"})
	if err != nil || !strings.Contains(out.Text, "is a file download") {
		t.Errorf("goto a download: %q, %v", out.Text, err)
	}
	waitFor(t, "the downloads to be reported", 5*time.Second, func() bool {
		return len(shared.notices.since(0)) > 0
	})
	snapshot(t, shared) // takes the notices
}

// A page whose document never finishes arriving (its body trickles, or a
// script it waits for never answers) is used once LoadTimeout has passed:
// goto, the snapshot and the actions work on what has arrived, and say the
// page is still loading.
func TestPageThatNeverFinishesLoading(t *testing.T) {
	tier.Slow(t)
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
	out, err := b.Do(ctx, contract.Action{Name: contract.ActGoto, URL: srv.URL + "/trickle"})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("goto took %s with a 1s load timeout", took)
	}
	if !strings.Contains(out.Text, "the page is still loading") {
		t.Errorf("goto outcome = %q", out.Text)
	}
	s, err := b.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(s.Notices, "\n"), "the page is still loading") {
		t.Errorf("notices = %q", s.Notices)
	}
	do(t, b, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Go"`)})
	s, err = b.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	refOf(t, s, `button "Done"`)

	if _, err := b.Do(ctx, contract.Action{Name: contract.ActGoto, URL: srv.URL + "/script"}); err != nil {
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
