package browser

import (
	"context"
	"encoding/json"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/browser/launcher"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

// The console tricks, as bot managers play them, every 20 ms: an Error
// logged with Error.prepareStackTrace counting its calls (a client with
// the Runtime domain enabled makes Chromium format the error for it, which
// calls it: 60 calls in 300 ms here with Runtime enabled, none without),
// and the older form, an Error whose stack is a getter.
const consoleTrap = `let hits = 0;
const trap = () => {
  Error.prepareStackTrace = () => { hits++; return 'probe'; };
  console.debug(new Error('probe'));
  const e = new Error('probe');
  Object.defineProperty(e, 'stack', {get() { hits++; return ''; }});
  console.debug(e);
};
trap();
setInterval(trap, 20);`

// noTracePage plays the trick in the page, in a frame of another site and
// in a worker, which report their counts to the page; names() lists what a
// script sees of the page's window and of EventTarget.prototype.
const noTracePage = `<title>Probe</title>
<button id=b onclick="document.title='clicked'; setTimeout(() => document.getElementById('w').remove(), 50)">Press</button>
<p id=w>waiting for the press</p>
<input id=q aria-label="Query">
<span id=s>tap me</span>
<canvas id=c width=50 height=50></canvas>
<iframe id=f title="Other site" src="{{frame}}" width=300 height=100></iframe>
<pre id=names hidden></pre>
<script>
document.getElementById('s').addEventListener('click', () => { document.title = 'tapped'; });
document.getElementById('c').getContext('2d').fillRect(0, 0, 10, 10);
` + consoleTrap + `
window.pageHits = () => hits;
window.frameHits = -1;
window.workerHits = -1;
window.reports = 0; // the frame's and the worker's, counted together
addEventListener('message', (e) => { if (e.data && typeof e.data.frameHits === 'number') { window.frameHits = e.data.frameHits; reports++; } });
const src = ` + "`" + `let hits = 0;
setInterval(() => { Error.prepareStackTrace = () => { hits++; return 'probe'; }; console.debug(new Error('probe')); postMessage(hits); }, 20);` + "`" + `;
new Worker(URL.createObjectURL(new Blob([src]))).onmessage = (e) => { window.workerHits = e.data; reports++; };
const mine = new Set(['pageHits', 'frameHits', 'workerHits', 'reports', 'names']);
window.names = () => JSON.stringify({
  own: Object.getOwnPropertyNames(window).filter((n) => !mine.has(n)).sort(),
  symbols: Object.getOwnPropertySymbols(window).map(String),
  eventTarget: Object.getOwnPropertyNames(EventTarget.prototype).sort(),
  addEventListener: Function.prototype.toString.call(EventTarget.prototype.addEventListener),
  fillRect: Function.prototype.toString.call(CanvasRenderingContext2D.prototype.fillRect),
});
document.getElementById('names').textContent = names();
</script>`

// noTraceFrame plays the trick in a frame of another site.
const noTraceFrame = `<p>frame text</p><button>Frame button</button><script>` + consoleTrap + `
setInterval(() => parent.postMessage({frameHits: hits}, '*'), 20);</script>`

// TestNoDevToolsTrace drives a page that looks for a DevTools client (the
// console getter trick, in the page, a cross-origin frame and a worker)
// through a snapshot, a click, a click on an element only a listener
// makes actionable, typing and a wait: no getter runs, and what the page
// sees of its window and of the built-ins webagent once wrapped is what a
// plain Chromium, with no DevTools client at all, shows it.
func TestNoDevToolsTrace(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	frame := serve(t, map[string]string{"/f": noTraceFrame})
	frameURL := strings.Replace(frame, "127.0.0.1", "localhost", 1) + "/f"
	base := serve(t, map[string]string{"/p": strings.Replace(noTracePage, "{{frame}}", frameURL, 1)})

	s := open(t, shared, base+"/p")
	// On a busy machine the frame's document can come after the first
	// snapshot's grace for frames: the next snapshots show it.
	waitFor(t, "the cross-origin frame in the snapshot", 20*time.Second, func() bool {
		if !strings.Contains(s.Text, "Frame button") {
			s = snapshot(t, shared)
		}
		return strings.Contains(s.Text, "Frame button")
	})
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `clickable "tap me"`)})
	do(t, shared, contract.Action{Name: contract.ActType, Ref: refOf(t, s, `textbox "Query"`), Text: "hello"})
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Frame button"`)})
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Press"`)})
	do(t, shared, contract.Action{Name: contract.ActWaitFor, Text: "waiting for the press", State: contract.WaitDisappear})
	s = snapshot(t, shared)

	// The frame and the worker report their counts every 20 ms: wait for
	// reports made after the actions.
	if got := evalPage[string](t, shared, "document.title"); got != "clicked" {
		t.Errorf("the clicks did not reach the page: title %q", got)
	}
	seen := func() (int, int, int) {
		return evalPage[int](t, shared, "pageHits()"), evalPage[int](t, shared, "frameHits"), evalPage[int](t, shared, "workerHits")
	}
	waitFor(t, "the frame's and the worker's reports", 10*time.Second, func() bool {
		_, f, w := seen()
		return f >= 0 && w >= 0
	})
	mark := evalPage[int](t, shared, "reports")
	waitFor(t, "later reports", 10*time.Second, func() bool { return evalPage[int](t, shared, "reports") >= mark+10 })
	if p, f, w := seen(); p != 0 || f != 0 || w != 0 {
		t.Errorf("the console getters ran: %d times in the page, %d in the cross-origin frame, %d in the worker", p, f, w)
	}

	// The plain Chromium: the same page, dumped by a headless Chromium
	// of the same binary that has no DevTools client and no feature
	// switched on. webagent's default browser shows no more (page tools
	// are off unless a page has WebMCP's origin-trial token, or
	// Options.PageTools puts document.modelContext in every page).
	bin, err := launcher.Find("")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir="+t.TempDir(), "--dump-dom", base+"/p").Output()
	if err != nil {
		t.Fatalf("plain chromium --dump-dom: %v", err)
	}
	m := regexp.MustCompile(`(?s)<pre id="names" hidden="">(.*?)</pre>`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("the plain Chromium's page has no names:\n%s", out)
	}
	plain := decodeNames(t, strings.NewReplacer("&quot;", `"`, "&amp;", "&", "&lt;", "<", "&gt;", ">").Replace(string(m[1])))
	driven := decodeNames(t, evalPage[string](t, shared, "names()"))
	if extra := missingFrom(driven.Own, plain.Own); len(extra) > 0 {
		t.Errorf("window has names a plain Chromium's does not: %v", extra)
	}
	if len(driven.Symbols) > 0 {
		t.Errorf("window has symbols: %v", driven.Symbols)
	}
	if !slices.Equal(driven.EventTarget, plain.EventTarget) || driven.AddEventListener != plain.AddEventListener || driven.FillRect != plain.FillRect {
		t.Errorf("built-ins differ from a plain Chromium's: %+v\nplain: %+v", driven, plain)
	}
}

// pageNames is what noTracePage's names() reports.
type pageNames struct {
	Own              []string `json:"own"`
	Symbols          []string `json:"symbols"`
	EventTarget      []string `json:"eventTarget"`
	AddEventListener string   `json:"addEventListener"`
	FillRect         string   `json:"fillRect"`
}

func decodeNames(t *testing.T, s string) pageNames {
	t.Helper()
	var n pageNames
	if err := json.Unmarshal([]byte(s), &n); err != nil {
		t.Fatalf("names %q: %v", s, err)
	}
	return n
}

// missingFrom lists the names of a that b lacks.
func missingFrom(a, b []string) []string {
	var out []string
	for _, n := range a {
		if !slices.Contains(b, n) {
			out = append(out, n)
		}
	}
	return out
}
