package main

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/tier"
)

// liveURL is the control URL `webagent run --live` prints on stderr.
var liveURL = regexp.MustCompile(`live view \(control\): (\S+)`)

// viewerBrowser is a person's browser: a Chromium of its own, closed when
// t ends.
func viewerBrowser(t *testing.T) *browser.Browser {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := browser.Launch(ctx, browser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// pageWait waits, within d, until expr holds in the viewer's page.
func pageWait(t *testing.T, b *browser.Browser, expr string, d time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	js := fmt.Sprintf(`new Promise((ok) => { const f = () => { try { if (%s) return ok(true); } catch (e) {} setTimeout(f, 20); }; f(); })`, expr)
	if _, err := b.Eval(ctx, js); err != nil {
		snap, _ := b.Snapshot(context.Background())
		t.Fatalf("waiting in the viewer for %s: %v\n%s", expr, err, snap.Text)
	}
}

// TestRunLiveConfirm: `webagent run --live --confirm purchases`, stdin no
// terminal: the policy's question waits for the page, where a person
// answers it with the button. Yes places the order, no does not; the view's
// tokens appear in no model request and not in the result.
func TestRunLiveConfirm(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	for _, c := range []struct {
		button string
		orders int32
	}{{"No, refuse it", 0}, {"Yes, allow it", 1}} {
		t.Run(c.button, func(t *testing.T) {
			t.Parallel()
			var orders atomic.Int32
			shop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				if r.Method == http.MethodPost && r.URL.Path == "/order" {
					orders.Add(1)
					fmt.Fprint(w, `<title>Thanks</title><h1>Order placed</h1>`)
					return
				}
				fmt.Fprint(w, `<title>Checkout</title><form method="post" action="/order"><button>Place order</button></form>`)
			}))
			defer shop.Close()
			llm, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
				if res := req.LastTool(); res != "" {
					return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]string{"answer": "done"})}}
				}
				ref, _ := modelserver.FindRef(req.LastUser(), "button", "Place order")
				return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]string{"ref": ref})}}
			}))
			if err != nil {
				t.Fatal(err)
			}
			defer llm.Close()
			errs := newWatchedBuffer()
			traceDir := t.TempDir()
			p := &proc{tmp: t.TempDir()}
			p.cmd = exec.Command(bin, "run", "--url", shop.URL+"/", "--base-url", llm.BaseURL(), "--model", "m",
				"--confirm", "purchases", "--human-timeout", "45s", "--live", "--json", "--trace", traceDir, "--log-level", "debug", "order the mug")
			p.cmd.Env = append(os.Environ(), "TMPDIR="+p.tmp)
			p.cmd.Stdout, p.cmd.Stderr = &p.stdout, errs
			if err := p.cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				if p.cmd.ProcessState == nil {
					p.cmd.Process.Kill()
					p.cmd.Wait()
				}
			})
			if !errs.waitFor("live view (control): ", 30*time.Second) {
				t.Fatalf("no live view URL on stderr:\n%s", errs.String())
			}
			url := liveURL.FindStringSubmatch(errs.String())[1]
			token := url[strings.Index(url, "?t=")+3:]
			v := viewerBrowser(t)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := v.Do(ctx, contract.Action{Name: contract.ActGoto, URL: url}); err != nil {
				t.Fatal(err)
			}
			pageWait(t, v, `!document.getElementById('question').hidden && document.getElementById('qtext').textContent.includes('Place order')`, time.Minute)
			if orders.Load() != 0 {
				t.Fatal("the order was placed before the answer")
			}
			snap, err := v.Snapshot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			ref, ok := modelserver.FindRef(snap.Text, "button", c.button)
			if !ok {
				t.Fatalf("no button %q in the view:\n%s", c.button, snap.Text)
			}
			if _, err := v.Do(ctx, contract.Action{Name: contract.ActClick, Ref: ref}); err != nil {
				t.Fatal(err)
			}
			code := p.wait(t, time.Minute)
			p.stderr.WriteString(errs.String())
			if code != exitOK {
				t.Fatalf("exit %d; stderr:\n%s", code, errs.String())
			}
			if n := orders.Load(); n != c.orders {
				t.Errorf("the shop got %d orders, want %d", n, c.orders)
			}
			if strings.Contains(p.stdout.String(), token) {
				t.Error("the result holds the view's token")
			}
			for _, r := range llm.Requests() {
				if strings.Contains(string(r.Req.Raw), token) {
					t.Error("a model request holds the view's token")
				}
			}
			if n := strings.Count(errs.String(), token); n != 1 {
				t.Errorf("stderr holds the control token %d times, want once (the URL printed for the person)", n)
			}
			filepath.WalkDir(traceDir, func(path string, d fs.DirEntry, err error) error {
				if b, _ := os.ReadFile(path); err == nil && !d.IsDir() && strings.Contains(string(b), token) {
					t.Errorf("the trace's %s holds the token", path)
				}
				return nil
			})
			pageWait(t, v, `document.getElementById('status').textContent.includes('ended') && !document.getElementById('result').hidden`, 30*time.Second)
			p.noChromeLeft(t)
		})
	}
}
