package snapbench

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/eval/sites"
	"github.com/webagent/webagent/internal/outline"
	"github.com/webagent/webagent/testfixture/tier"
)

// The walk plays in-page actions on the saved pages; what the agent sends
// after them (a delta, or the whole page when a delta would not be much
// smaller) is never more than the whole snapshots, and every delta,
// applied to the snapshot before as a model reads it, rebuilds the
// snapshot after.
func TestWalk(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out bytes.Buffer
	sum, err := Walk(ctx, Config{Dir: "testdata"}, &out)
	if err != nil {
		t.Fatalf("Walk: %v\n%s", err, out.String())
	}
	t.Logf("output:\n%s", out.String())
	if !strings.HasPrefix(out.String(), WalkHeader+"\n") || sum.Pages != 3 || sum.InPage < 3 {
		t.Fatalf("want 3 pages with in-page actions:\n%s", out.String())
	}
	if sum.Sent > sum.Full || sum.Delta >= sum.Full {
		t.Errorf("the deltas (%d tokens, %d sent) are not under half the whole snapshots (%d)", sum.Delta, sum.Sent, sum.Full)
	}
	faithful(t, sum)
}

// faithful fails the test for each delta of the walk that did not
// rebuild its snapshot.
func faithful(t *testing.T, sum WalkSummary) {
	t.Helper()
	for _, m := range sum.Mismatches {
		t.Errorf("a delta did not rebuild the snapshot: %s", m)
	}
	if sum.Rebuilt != sum.InPage {
		t.Errorf("%d of %d deltas rebuilt the snapshot", sum.Rebuilt, sum.InPage)
	}
}

// The built-in sites' pages, walked as the saved pages are (type, open a
// menu, check, select, expand): each delta rebuilds its snapshot.
func TestWalkBuiltInSites(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	pages := map[string][]string{
		"shop": {"/products"}, "admin": {"/users"}, "webmail": {"/inbox"}, "wiki": {"/wiki/Main_Page"},
		"booking": {"/", "/book"}, "bank": {"/"}, "apps": {"/claim", "/laptop", "/tickets"},
	}
	widgets, err := filepath.Glob("../sites/widgets/*.html")
	if err != nil || len(widgets) == 0 {
		t.Fatalf("the widgets' pages: %v", err)
	}
	for _, w := range widgets {
		pages["widgets"] = append(pages["widgets"], "/"+strings.TrimSuffix(filepath.Base(w), ".html"))
	}
	var targets []walkTarget
	for _, name := range sites.Names() {
		site, err := sites.New(name)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(site)
		t.Cleanup(srv.Close)
		if len(pages[name]) == 0 {
			t.Fatalf("no pages to walk on the built-in site %s", name)
		}
		for _, p := range pages[name] {
			targets = append(targets, walkTarget{name: name + p, url: srv.URL + p})
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var out bytes.Buffer
	sum, err := walk(ctx, Config{}, targets, &out)
	if err != nil {
		t.Fatalf("walk: %v\n%s", err, out.String())
	}
	t.Logf("output:\n%s", out.String())
	if sum.Pages != len(targets) || sum.InPage < 40 {
		t.Errorf("%d of %d pages walked, %d in-page actions; want every page and at least 40", sum.Pages, len(targets), sum.InPage)
	}
	faithful(t, sum)
}

// The saved pages of the corpus (../shared/corpus/pages beside the
// checkout, or WEBAGENT_CORPUS): each delta of the walk rebuilds its
// snapshot. Skipped without the corpus.
func TestWalkCorpus(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	dir := os.Getenv("WEBAGENT_CORPUS")
	if dir == "" {
		dir = "../../../shared/corpus/pages"
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no corpus at %s (set WEBAGENT_CORPUS): %v", dir, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	var out bytes.Buffer
	sum, err := Walk(ctx, Config{Dir: dir}, &out)
	if err != nil {
		t.Fatalf("Walk: %v\n%s", err, out.String())
	}
	t.Logf("output:\n%s", out.String())
	if sum.InPage < 50 {
		t.Errorf("%d in-page actions on the corpus; want at least 50", sum.InPage)
	}
	faithful(t, sum)
}

// (d) In Chromium: a click on an element that takes no focus (a div with
// a click handler) moves the focus from the field to the page's body; the
// delta says the field lost it, and rebuilds the page.
func TestDeltaFocusLost(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	srv := httptest.NewServer(sitePage(`<title>Focus</title><h1>Sign in</h1>
<input aria-label="Email" autofocus>
<div onclick="document.getElementById('n').textContent='Checked.'" style="cursor:pointer">Check the address</div>
<p id=n></p>`))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := launch(ctx, Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := b.Close(); err != nil {
			t.Error(err)
		}
	}()
	prev := snapAfter(ctx, t, b, contract.Action{Name: contract.ActGoto, URL: srv.URL})
	field := `textbox "Email" focused [ref=`
	ref, ok := outline.FindRef(prev, "clickable", "Check the address")
	if !strings.Contains(prev, field) || !ok {
		t.Fatalf("want the field focused and the div clickable:\n%s", prev)
	}
	cur := snapAfter(ctx, t, b, contract.Action{Name: contract.ActClick, Ref: ref})
	if strings.Contains(cur, "focused") || !strings.Contains(cur, "Checked.") {
		t.Fatalf("want the focus gone to the body and the note shown:\n%s", cur)
	}
	delta := outline.Diff(prev, cur).Text()
	if !strings.Contains(delta, `~ textbox "Email" [ref=`) || !strings.Contains(delta, "(was: focused)") {
		t.Errorf("the delta does not say the field lost the focus:\n%s", delta)
	}
	if why := rebuild(prev, delta, cur); why != "" {
		t.Errorf("the delta does not rebuild the page: %s\n%s", why, delta)
	}
}

func snapAfter(ctx context.Context, t *testing.T, b *browser.Browser, a contract.Action) string {
	t.Helper()
	if _, err := b.Do(ctx, a); err != nil {
		t.Fatalf("%s: %v", a.Name, err)
	}
	s, err := b.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return s.Text
}

// sitePage serves one HTML page at every path.
func sitePage(html string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, html)
	})
}
