package browser

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"go.uber.org/goleak"

	"github.com/webagent/webagent/browser/launcher"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/machinelock"
)

// shared is one Chromium for the benchmarks and the tests that need the
// package's one launched browser.
var shared *Browser

// server is the one Chromium the parallel tests share, as chromedp's tests
// share their allocator: newTab gives each test a Browser of its own on it,
// in a browser context of its own (cookies, storage, tabs), so that tests
// run side by side with t.Parallel.
var server *Server

// toolServer is a second shared Chromium, started by the first test that
// needs it, with Options.PageTools: every page may offer tools, as with
// --page-tools.
var toolServer struct {
	once sync.Once
	srv  *Server
	err  error
}

// newToolTabWith is newTabWith on toolServer.
func newToolTabWith(t *testing.T, opts Options) *Browser {
	t.Helper()
	toolServer.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		toolServer.srv, toolServer.err = StartServer(ctx, Options{PageTools: true})
	})
	if toolServer.err != nil {
		t.Fatalf("starting the shared chromium with page tools: %v", toolServer.err)
	}
	return attachTab(t, toolServer.srv.URL, opts)
}

// newTab returns a Browser of the test's own on the shared server, closed
// (its browser context removed) when the test ends.
func newTab(t *testing.T) *Browser {
	t.Helper()
	return newTabWith(t, Options{})
}

// newObservableTab is newTab with Options.Observable (the canvas log).
func newObservableTab(t *testing.T) *Browser {
	t.Helper()
	return newTabWith(t, Options{Observable: true})
}

// newTabWith is newTab with opts, on the shared server in a browser
// context of its own.
func newTabWith(t *testing.T, opts Options) *Browser {
	t.Helper()
	return attachTab(t, server.URL, opts)
}

// attachTab attaches a Browser with opts to the Chromium at url, in a
// browser context of its own, closed when the test ends.
func attachTab(t *testing.T, url string, opts Options) *Browser {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	opts.CDPURL, opts.Isolated, opts.Logger = url, true, testLogger()
	b, err := Launch(ctx, opts)
	if err != nil {
		t.Fatalf("a tab on the shared browser: %v", err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return b
}

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		helperMain()
	}
	_ = machinelock.Shared()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	b, err := Launch(ctx, Options{Logger: testLogger()})
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "launching chromium:", err)
		os.Exit(1)
	}
	shared = b
	ctx, cancel = context.WithTimeout(context.Background(), 60*time.Second)
	server, err = StartServer(ctx, Options{})
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "starting the shared chromium:", err)
		_ = b.Close()
		os.Exit(1)
	}
	code := m.Run()
	if toolServer.srv != nil {
		if err := toolServer.srv.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "closing the shared chromium with page tools:", err)
			code = 1
		}
	}
	if err := server.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "closing the shared chromium:", err)
		code = 1
	}
	if err := b.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "closing chromium:", err)
		code = 1
	}
	if pids := launcher.ProcessesUsing(b.sess.profile()); len(pids) > 0 {
		fmt.Fprintln(os.Stderr, "chromium processes left after Close:", pids)
		code = 1
	}
	if _, err := os.Stat(b.sess.profile()); !errors.Is(err, os.ErrNotExist) {
		fmt.Fprintln(os.Stderr, "profile dir left after Close:", b.sess.profile(), err)
		code = 1
	}
	if code == 0 {
		// A reaper (launcher.Process.Abandon) outlives the start that was
		// cut short, by design, reapBudget at most; the goroutine that
		// collects its exit goes with it.
		if err := goleak.Find(goleak.IgnoreAnyFunction("github.com/webagent/webagent/browser/launcher.startReaper.func1")); err != nil {
			fmt.Fprintln(os.Stderr, "goroutine leak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// testLogger logs to stderr when WEBAGENT_TEST_LOG is set.
func testLogger() *slog.Logger {
	if os.Getenv("WEBAGENT_TEST_LOG") == "" {
		return nil
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// serve serves the pages (path -> HTML, or a file of the type its
// extension says) on 127.0.0.1 for the test and
// returns the server's base URL.
func serve(t *testing.T, pages map[string]string) string {
	t.Helper()
	mux := http.NewServeMux()
	for path, body := range pages {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != path && path != "/" {
				http.NotFound(w, r)
				return
			}
			ct := mime.TypeByExtension(filepath.Ext(path))
			if ct == "" {
				ct = "text/html; charset=utf-8"
			}
			w.Header().Set("Content-Type", ct)
			fmt.Fprint(w, body)
		})
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// servePage serves one page at / and returns its URL.
func servePage(t *testing.T, body string) string {
	t.Helper()
	return serve(t, map[string]string{"/": body}) + "/"
}

// tctx returns a context for one call of a test.
func tctx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// do performs an action on b and fails the test on an error.
func do(t *testing.T, b *Browser, a contract.Action) string {
	t.Helper()
	return doOutcome(t, b, a).Text
}

// doOutcome is do returning the whole outcome.
func doOutcome(t *testing.T, b *Browser, a contract.Action) contract.Outcome {
	t.Helper()
	out, err := b.Do(tctx(t), a)
	if err != nil {
		t.Fatalf("%s: %v", a.Name, err)
	}
	return out
}

// open navigates b to url and returns a snapshot.
func open(t *testing.T, b *Browser, url string) contract.Snapshot {
	t.Helper()
	do(t, b, contract.Action{Name: contract.ActGoto, URL: url})
	return snapshot(t, b)
}

func snapshot(t *testing.T, b *Browser) contract.Snapshot {
	t.Helper()
	s, err := b.Snapshot(tctx(t))
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	return s
}

// refOf returns the ref on the snapshot line that starts (after the
// indentation) with prefix, such as `button "Sign in"`.
func refOf(t *testing.T, s contract.Snapshot, prefix string) string {
	t.Helper()
	for line := range strings.Lines(s.Text) {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, prefix) {
			continue
		}
		i := strings.LastIndex(line, "[ref=")
		if i < 0 || !strings.HasSuffix(line, "]") {
			continue
		}
		return line[i+len("[ref=") : len(line)-1]
	}
	t.Fatalf("no line starting with %s in the snapshot:\n%s", prefix, s.Text)
	return ""
}

// hasLine reports whether the snapshot has the line, ignoring indentation.
func hasLine(s contract.Snapshot, want string) bool {
	for line := range strings.Lines(s.Text) {
		if strings.TrimSpace(line) == want {
			return true
		}
	}
	return false
}

func wantLine(t *testing.T, s contract.Snapshot, want string) {
	t.Helper()
	if !hasLine(s, want) {
		t.Errorf("snapshot has no line %q:\n%s", want, s.Text)
	}
}

// evalPage evaluates a JavaScript expression in the page's own world, for
// checking what happened there.
func evalPage[T any](t *testing.T, b *Browser, expr string) T {
	t.Helper()
	o, err := b.begin(tctx(t))
	if err != nil {
		t.Fatal(err)
	}
	defer o.end()
	var v T
	r, err := o.evalMain(runtime.EvaluateParams{Expression: expr, ReturnByValue: new(true)})
	if err == nil {
		err = decodeValue(r, &v)
	}
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

func isActionError(err error) bool {
	var ae *contract.ActionError
	return errors.As(err, &ae)
}

// armTripwire arms a one-shot hook on the method of a prototype (such as
// Element.prototype.getBoundingClientRect, which the walker calls) in
// webagent's world of the current document (world.go): the JavaScript
// statement what runs when webagent's code next calls it. The page's own
// world cannot reach webagent's calls, which is the point.
func armTripwire(t *testing.T, b *Browser, method, what string) {
	t.Helper()
	o, err := b.begin(tctx(t))
	if err != nil {
		t.Fatal(err)
	}
	defer o.end()
	typ, name, _ := strings.Cut(method, ".")
	expr := fmt.Sprintf(`(() => {
  const proto = %[1]s.prototype, name = %[2]q;
  const real = proto[name];
  proto[name] = function (...args) {
    proto[name] = real;
    %[3]s
    return real.apply(this, args);
  };
  return true;
})()`, typ, name, what)
	var ok bool
	if err := o.evalValue(expr, &ok); err != nil {
		t.Fatalf("arming %s: %v", method, err)
	}
}

// pagesOf lists the page targets of b's browser.
func pagesOf(t *testing.T, b *Browser) []string {
	t.Helper()
	res, err := cdp.Call(tctx(t), b.sess.browser, target.GetTargets, target.GetTargetsParams{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, info := range res.TargetInfos {
		if info.Type == "page" {
			ids = append(ids, string(info.TargetID))
		}
	}
	return ids
}
