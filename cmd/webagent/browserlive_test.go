package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"github.com/webagent/webagent/testfixture/chrometest"
	"github.com/webagent/webagent/testfixture/tier"
)

// viewerChrome is the Chromium a person watches a live view in (a tab per
// test); the session's own browser is another, the session's.
var viewerChrome chrometest.Shared

// liveForm is a field and a button at places the viewer's screen clicks.
const liveForm = `<title>Form</title><style>body{margin:0} #name{position:absolute;left:40px;top:60px;width:220px;height:30px}
#send{position:absolute;left:40px;top:120px;width:120px;height:30px} #out{position:absolute;left:40px;top:180px}</style>
<input id="name" aria-label="Name"><button id="send" onclick="document.getElementById('out').textContent='Sent: '+document.getElementById('name').value">Send</button>
<p id="out">Not sent</p>`

// liveLinks reads the two links webagent browser live prints.
func liveLinks(t *testing.T, out string) (view, control string) {
	t.Helper()
	m := regexp.MustCompile(`(?m)^live view \(watch\):\s+(\S+)\nlive view \(control\):\s+(\S+)$`).FindStringSubmatch(strings.TrimSpace(out))
	if m == nil {
		t.Fatalf("browser live printed %q, not the two links", out)
	}
	return m[1], m[2]
}

// httpStatus is the status of a GET of u; 0 when nothing answers.
func httpStatus(t *testing.T, u string) int {
	t.Helper()
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get(u)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// withToken is u with its token replaced.
func withToken(t *testing.T, u, tok string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	p.RawQuery = url.Values{"t": {tok}}.Encode()
	return p.String()
}

// A coding agent's session with a live view: the person takes the browser
// over in the viewer, the agent's click is refused while they hold it (its
// snapshot is not, and follows what they type), they type into the page
// through the viewer and hand back; the agent's next snapshot shows what
// they typed and its click works again. Each command shows in the view as
// a step. A wrong token gets 403 and changes nothing; revoked links stop
// working.
func TestBrowserLive(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	base, host := sitePages(t, map[string]string{"/": liveForm})
	s := newBrowserSession(t)
	s.must(t, "open", base+"/", "--allowed-domains", host)
	snap := s.must(t, "snapshot")
	name, send := refIn(t, snap, `textbox "Name"`), refIn(t, snap, `button "Send"`)
	view, control := liveLinks(t, s.must(t, "live"))
	if again, _ := liveLinks(t, s.must(t, "live")); again != view {
		t.Errorf("a second live gave other links: %s, then %s", view, again)
	}

	// A wrong token: 403, for the page and its socket, and nothing changes.
	ws := strings.Replace(withToken(t, control, "AAAAAAAAAAAAAAAAAAAAAA"), "?t=", "/ws?t=", 1)
	for _, u := range []string{withToken(t, control, "AAAAAAAAAAAAAAAAAAAAAA"), ws} {
		if code := httpStatus(t, u); code != http.StatusForbidden {
			t.Errorf("GET with a wrong token: %d, want 403", code)
		}
	}
	if st := s.must(t, "status"); !strings.Contains(st, "the commands have control") {
		t.Errorf("status after the wrong tokens:\n%s", st)
	}

	vctx := liveViewer(t, control)
	viewerWait(t, vctx, `window.__lv.frames > 0`, 30*time.Second)
	viewerClick(t, vctx, "#take")
	viewerWait(t, vctx, `document.getElementById('controlstate').textContent.includes('You have control')`, 20*time.Second)

	const refusal = "a person has control of the browser in the live view; run the command again after they hand it back"
	if code, out, errOut, _ := s.cmd(t, "click", send); code != exitFailed || out != "" || !strings.Contains(errOut, refusal+" (PERSON_HAS_CONTROL)") {
		t.Errorf("click while a person holds control: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	var r struct {
		OK   bool   `json:"ok"`
		Code string `json:"code"`
	}
	if code, out, _, _ := s.cmd(t, "type", name, "agent text", "--json"); code != exitFailed || json.Unmarshal([]byte(out), &r) != nil || r.OK || r.Code != "PERSON_HAS_CONTROL" {
		t.Errorf("type --json while a person holds control: exit %d, %s", code, out)
	}
	if code, _, errOut, _ := s.cmd(t, "close"); code != exitFailed || !strings.Contains(errOut, "PERSON_HAS_CONTROL") {
		t.Errorf("close while a person holds control: exit %d, %s", code, errOut)
	}

	// The person types; the agent's snapshots, which still run, see it.
	viewerClickScreen(t, vctx, 150, 75)
	viewerType(t, vctx, "Ada Lovelace")
	waitFor(t, "the agent's snapshot to show what the person typed", 30*time.Second, func() bool {
		code, out, _, _ := s.cmd(t, "snapshot")
		return code == 0 && strings.Contains(out, "Ada Lovelace")
	})
	viewerClick(t, vctx, "#handback")
	viewerWait(t, vctx, `document.getElementById('controlstate').textContent.includes('The agent has control')`, 20*time.Second)

	if out := s.must(t, "click", send); !strings.Contains(out, "clicked") {
		t.Errorf("the click after the hand back said %q", out)
	}
	if snap := s.must(t, "snapshot"); !strings.Contains(snap, "Sent: Ada Lovelace") {
		t.Errorf("the page after the click:\n%s", snap)
	}
	if strings.Contains(s.must(t, "snapshot"), "agent text") {
		t.Error("the type refused while the person held control reached the page")
	}
	// The commands showed in the view, the refused ones with their code.
	viewerWait(t, vctx, `(() => { const s = document.getElementById('steps').textContent;
		return s.includes('PERSON_HAS_CONTROL') && s.includes('click({"ref":"`+send+`"})') && s.includes('clicked'); })()`, 20*time.Second)

	// Revoked: the old links stop working, the new ones work.
	newView, newControl := liveLinks(t, s.must(t, "live", "--revoke"))
	if newView == view || newControl == control {
		t.Fatalf("live --revoke gave the same links")
	}
	if a, b := httpStatus(t, control), httpStatus(t, newControl); a != http.StatusForbidden || b != http.StatusOK {
		t.Errorf("after a revoke: the old control link %d (want 403), the new one %d (want 200)", a, b)
	}
	viewerWait(t, vctx, `document.getElementById('status').textContent.includes('revoked')`, 20*time.Second)

	// The view and its server go with the session.
	s.must(t, "close")
	waitFor(t, "the live view's server to go with the session", 15*time.Second, func() bool { return httpStatus(t, newControl) == 0 })
}

// A session's live view and its server end with the session however it
// ends, its idle timeout or SIGTERM, and leave no registry entry.
func TestBrowserLiveEnds(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	base, host := sitePages(t, map[string]string{"/": `<title>Idle</title><p>idle page</p>`})
	s := newBrowserSession(t)
	var listed string
	for _, kv := range s.env {
		if rt, ok := strings.CutPrefix(kv, "XDG_RUNTIME_DIR="); ok {
			listed = filepath.Join(rt, "webagent", "live", "*.json")
		}
	}
	for _, end := range []string{"idle", "SIGTERM"} {
		args := []string{"open", base + "/", "--allowed-domains", host}
		if end == "idle" {
			args = append(args, "--idle-timeout", "3s")
		}
		s.must(t, args...)
		_, control := liveLinks(t, s.must(t, "live"))
		if code := httpStatus(t, control); code != http.StatusOK {
			t.Fatalf("%s: the control link answered %d", end, code)
		}
		if files, _ := filepath.Glob(listed); len(files) != 1 {
			t.Errorf("%s: the registry lists %v, want the session's view", end, files)
		}
		pid := s.pid()
		if end == "SIGTERM" {
			if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
		}
		waitExit(t, pid, 3*time.Second+leftWithin+slack)
		if code := httpStatus(t, control); code != 0 {
			t.Errorf("%s: the live view answered %d after the session ended", end, code)
		}
		if files, _ := filepath.Glob(listed); len(files) != 0 {
			t.Errorf("%s: the registry still lists %v", end, files)
		}
	}
}

// liveViewer opens u in a tab of the viewer's Chromium, as a person's
// browser would; the tab closes when t ends.
func liveViewer(t *testing.T, u string) context.Context {
	t.Helper()
	actx, cancelA := remote.NewAllocator(context.Background(), viewerChrome.URL(t))
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancel()
		cancelA()
	})
	if err := chromedp.Do(ctx); err != nil { // the tab, for the whole test
		t.Fatal(err)
	}
	rctx, rcancel := context.WithTimeout(ctx, 30*time.Second)
	defer rcancel()
	if err := chromedp.Do(rctx, chromedp.Navigate(u)); err != nil {
		t.Fatalf("opening the view: %v", err)
	}
	return ctx
}

// viewerWait waits, within d, until expr is true in the viewer.
func viewerWait(t *testing.T, ctx context.Context, expr string, d time.Duration) {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	js := fmt.Sprintf(`new Promise((ok) => { const f = () => { try { if (%s) return ok(true); } catch (e) {} setTimeout(f, 20); }; f(); })`, expr)
	if _, err := chromedp.Run(wctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise)); err != nil {
		bctx, bcancel := context.WithTimeout(ctx, 5*time.Second)
		defer bcancel()
		body, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.body.innerText`))
		t.Fatalf("waiting in the viewer for %s: %v\n%s", expr, err, body)
	}
}

// viewerClick clicks the viewer's element (a person's mouse).
func viewerClick(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Do(cctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		t.Fatalf("clicking %s in the viewer: %v", sel, err)
	}
}

// viewerClickScreen clicks the viewer's screen where the page's point
// (x, y) shows.
func viewerClickScreen(t *testing.T, ctx context.Context, x, y float64) {
	t.Helper()
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	pt, err := chromedp.Run(cctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => { const r = document.getElementById('screen').getBoundingClientRect();
		const f = window.__lv.lastFrame; return [r.left + %g * r.width / f.w, r.top + %g * r.height / f.h]; })()`, x, y)))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(cctx, chromedp.MouseClickXY(pt[0], pt[1])); err != nil {
		t.Fatal(err)
	}
}

// viewerType types s with the viewer's keyboard.
func viewerType(t *testing.T, ctx context.Context, s string) {
	t.Helper()
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Do(cctx, chromedp.KeyEvent(s)); err != nil {
		t.Fatal(err)
	}
}
