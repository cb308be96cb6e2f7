package browser

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
)

// Pages built to exhaust the agent: the snapshot stays within a hard size
// and a time budget, and says when it is partial.

// 200,000 links: the snapshot stays small (a model request well under
// 512 KiB) and quick (under 3 s), keeps the links near the viewport, and
// says how many it left out and how to reach them.
func TestSnapshotCapsManyLinks(t *testing.T) {
	u := servePage(t, `<title>Links</title><h1>Many links</h1><div id=l></div><script>
const d = document.getElementById('l'), f = document.createDocumentFragment();
for (let i = 0; i < 200000; i++) { const a = document.createElement('a'); a.href = '/p/' + i; a.textContent = 'Item ' + i; f.append(a, ' '); }
d.append(f);
</script>`)
	s := capped(t, u, "200,000 links")
	if !strings.Contains(s.Text, `link "Item 0"`) {
		t.Errorf("the first links are not shown:\n%.2000s", s.Text)
	}
	if !strings.Contains(s.Text, "more links") {
		t.Errorf("the snapshot does not say how many links it left out:\n%.3000s", s.Text)
	}
	leaveHeavyPage(t)
}

// A huge text node is read within the time budget: the walker reads 20,000
// characters of a text node, so the time does not grow with its size. (The
// test uses 5 MB: Chromium's own layout of 50 MB takes a minute on a busy
// machine, before any snapshot.)
func TestSnapshotCapsHugeText(t *testing.T) {
	u := servePage(t, `<title>Text</title><h1>Big</h1><p id=p></p><button>After</button><script>
document.getElementById('p').textContent = 'lorem ipsum '.repeat(5e6 / 12);
</script>`)
	s := capped(t, u, "a 5 MB text node")
	wantLine(t, s, `button "After" [ref=`+refOf(t, s, `button "After"`)+`]`)
	leaveHeavyPage(t)
}

// leaveHeavyPage leaves the page for a light one, so that the next test
// does not wait for Chromium to drop it.
func leaveHeavyPage(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := shared.Do(ctx, contract.Action{Name: contract.ActGoto, URL: "about:blank"}); err != nil {
		t.Fatal(err)
	}
}

// capped opens the heavy page at u and takes its snapshot, which must come
// within 3 s and 64 KiB. Building and laying out the page are the page's
// time, not the snapshot's.
func capped(t *testing.T, u, what string) contract.Snapshot {
	t.Helper()
	gctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	if _, err := shared.Do(gctx, contract.Action{Name: contract.ActGoto, URL: u}); err != nil {
		t.Fatal(err)
	}
	// Chromium lays the page out on first demand.
	if _, err := shared.Eval(gctx, "document.body.getBoundingClientRect().height"); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	s, err := shared.Snapshot(gctx)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(t0)
	t.Logf("snapshot of %s: %s, %d bytes", what, took, len(s.Text))
	if took > 3*time.Second {
		t.Errorf("the snapshot took %s, want under 3 s", took)
	}
	if len(s.Text) > 64<<10 {
		t.Errorf("the snapshot is %d bytes, want under 64 KiB", len(s.Text))
	}
	return s
}
