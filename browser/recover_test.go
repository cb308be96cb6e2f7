package browser

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"

	"github.com/webagent/webagent/browser/launcher"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

// within fails the test unless elapsed is in [bound, bound+slack].
func within(t *testing.T, what string, elapsed, bound, slack time.Duration) {
	t.Helper()
	if elapsed < bound || elapsed > bound+slack {
		t.Errorf("%s took %v; want between %v and %v", what, elapsed, bound, bound+slack)
	} else {
		t.Logf("%s took %v (bound %v)", what, elapsed, bound)
	}
}

func TestRecoverResponsivePage(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	url := servePage(t, `<title>Fine</title><p>fine</p>`)
	open(t, shared, url)
	start := time.Now()
	what, err := shared.Recover(tctx(t))
	if err != nil || !strings.Contains(what, "The page is responsive") || !strings.Contains(what, url) {
		t.Fatalf("Recover: %q, %v", what, err)
	}
	if e := time.Since(start); e > 300*time.Millisecond {
		t.Errorf("Recover of a working page took %v", e)
	}
}

// A loop started by a click (in the handler itself, so that the click's
// input events hang) or by a timer: the call ends at its deadline, Recover
// terminates the script, and the next snapshot works.
func TestRecoverFrozenPage(t *testing.T) {
	tier.Slow(t)
	for _, c := range []struct{ name, html string }{
		{"click", `<title>Frozen</title><p id=p>ok</p><button onclick="for (;;) {}">Freeze</button>`},
		{"timer", `<title>Frozen</title><p id=p>ok</p><button onclick="setTimeout(() => { for (;;) {} }, 50)">Freeze</button>`},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := newTab(t)
			url := servePage(t, c.html)
			s := open(t, b, url)
			const bound = 700 * time.Millisecond
			start := time.Now()
			ctx, cancel := context.WithTimeout(context.Background(), bound)
			_, err := b.Do(ctx, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Freeze"`)})
			cancel()
			if c.name == "click" {
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Fatalf("click on the freezing page: %v", err)
				}
				within(t, "the click on the frozen page", time.Since(start), bound, 100*time.Millisecond)
			} else if err != nil && !errors.Is(err, context.DeadlineExceeded) {
				// The timer's loop starts 50 ms after the click: mostly
				// after the click returned (a snapshot now would hang), on
				// a busy machine while it still looked at what the click
				// did, which then ends at its bound. Either way no call is
				// made before Recover.
				t.Fatalf("click: %v", err)
			}
			waitFor(t, "the page to freeze", 5*time.Second, func() bool { return !b.responsive(tctx(t), b.cur) })

			start = time.Now()
			what, err := b.Recover(tctx(t))
			if err != nil || !strings.Contains(what, "terminated") {
				t.Fatalf("Recover: %q, %v", what, err)
			}
			t.Logf("Recover took %v: %s", time.Since(start), what)
			if e := time.Since(start); e > 3*time.Second {
				t.Errorf("Recover took %v", e)
			}
			s = snapshot(t, b)
			wantLine(t, s, "ok")
			do(t, b, contract.Action{Name: contract.ActScroll, Direction: "down"})
		})
	}
}

// A navigation whose document never arrives: the call ends at its
// deadline, Recover stops the navigation and says where the page is.
func TestRecoverPendingNavigation(t *testing.T) {
	hang := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<title>Start</title><p>start page</p><a href="/hang">Hang</a>`))
	})
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	defer close(hang)
	b := newTab(t)
	open(t, b, srv.URL+"/")
	const bound = 500 * time.Millisecond
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	// The dispatcher abandons the call: Do runs on, ignored, and the
	// caller moves on at the deadline (as the agent's watchdog does).
	errc := make(chan error, 1)
	go func() {
		_, err := b.Do(ctx, contract.Action{Name: contract.ActGoto, URL: srv.URL + "/hang"})
		errc <- err
	}()
	err := <-errc
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("goto a page that never answers: %v", err)
	}
	within(t, "the goto", time.Since(start), bound, 100*time.Millisecond)
	start = time.Now()
	what, err := b.Recover(tctx(t))
	if err != nil || !strings.Contains(what, srv.URL+"/") {
		t.Fatalf("Recover: %q, %v", what, err)
	}
	t.Logf("Recover took %v: %s", time.Since(start), what)
	if s := snapshot(t, b); !hasLine(s, "start page") {
		t.Errorf("snapshot after Recover:\n%s", s.Text)
	}

	// A navigation left pending by something else than an abandoned call
	// (whose own clean-up stops it): Recover stops it.
	nctx, ncancel := context.WithCancel(context.Background())
	navDone := make(chan struct{})
	go func() {
		defer close(navDone)
		_, _ = cdp.Call(nctx, b.target, page.Navigate, page.NavigateParams{URL: srv.URL + "/hang"})
	}()
	defer func() { ncancel(); <-navDone }()
	waitFor(t, "the navigation to start", 5*time.Second, func() bool { return b.nav.state().pending != "" })
	what, err = b.Recover(tctx(t))
	if err != nil || !strings.Contains(what, "A navigation that had not arrived was stopped") || !strings.Contains(what, srv.URL+"/") {
		t.Fatalf("Recover: %q, %v", what, err)
	}
	if s := snapshot(t, b); !hasLine(s, "start page") {
		t.Errorf("snapshot after Recover:\n%s", s.Text)
	}
}

// Nothing an abandoned call does reaches the page after its context ended:
// input events with an ended context are never sent (chromedp alone sends
// some of them: its select picks at random between the send and the ended
// context).
func TestNoInputAfterContextEnded(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Late</title><button onmousedown="window.downs=(window.downs||0)+1" onclick="window.clicks=(window.clicks||0)+1" style="position:fixed;left:0;top:0;width:200px;height:100px">Target</button>`))
	refOf(t, s, `button "Target"`)
	o, err := shared.begin(tctx(t))
	if err != nil {
		t.Fatal(err)
	}
	o.cancel(context.Canceled)
	for range 50 {
		if err := o.clickAt(aimed{Point: contract.Point{X: 100, Y: 50}, moves: true}); !errors.Is(err, context.Canceled) {
			o.end()
			t.Fatalf("click with an ended context: %v", err)
		}
	}
	// The guard covers navigations too.
	_, err = o.navigate("about:blank")
	o.end()
	if err == nil {
		t.Fatal("navigate with an ended context succeeded")
	}
	if n := evalPage[int](t, shared, "(window.downs||0) + (window.clicks||0)"); n != 0 {
		t.Fatalf("%d mouse events reached the page after the context ended", n)
	}
	if got := snapshot(t, shared); got.Title != "Late" {
		t.Fatalf("the page navigated after the context ended: %s", got.URL)
	}
}

// A click whose element becomes clickable only after the deadline never
// lands: the page is busy until after the deadline (a loop started by a
// timer), the call is abandoned at its deadline, and when the page is free
// again no click arrives.
func TestAbandonedClickNeverLands(t *testing.T) {
	tier.Slow(t)
	b := newTab(t)
	s := open(t, b, servePage(t, `<title>Busy</title>
<button onclick="window.clicks=(window.clicks||0)+1">Target</button>
<button onclick="setTimeout(() => { const end = Date.now() + 1500; while (Date.now() < end) {} }, 20)">Busy</button>`))
	do(t, b, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Busy"`)})
	// The click must meet a busy page: wait until the renderer stops
	// answering (a bare CDP call, which abandons nothing in the page).
	waitFor(t, "the page to be busy", 5*time.Second, func() bool {
		ctx, cancel := context.WithTimeout(tctx(t), 50*time.Millisecond)
		defer cancel()
		_, err := cdp.Call(ctx, b.target, runtime.Evaluate, runtime.EvaluateParams{Expression: "1"})
		return err != nil
	})
	const bound = 300 * time.Millisecond
	// The clock starts before the deadline is set: the call cannot
	// seem to end before its bound.
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	_, err := b.Do(ctx, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Target"`)})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("click on a busy page: %v", err)
	}
	within(t, "the abandoned click", time.Since(start), bound, 100*time.Millisecond)
	// The page is free again after 1.5 s; give a late click time to land.
	deadline := time.Now().Add(2500 * time.Millisecond)
	for time.Now().Before(deadline) {
		if n := evalPage[int](t, b, "window.clicks||0"); n != 0 {
			t.Fatalf("the abandoned click landed %v after its deadline", time.Since(start)-bound)
		}
	}
}

// A renderer that a terminated script does not free (it waits in a
// synchronous request that never answers): Recover replaces the tab and
// reopens its URL.
func TestRecoverReplacesStuckTab(t *testing.T) {
	tier.Slow(t)
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hang" {
			select {
			case <-hang:
			case <-r.Context().Done():
			}
			return
		}
		w.Write([]byte(`<title>Stuck</title><p>fresh page</p><button onclick="const x = new XMLHttpRequest(); x.open('GET', '/hang', false); x.send()">Stick</button>`))
	}))
	defer srv.Close()
	defer close(hang)
	b := launch(t, Options{})
	url := srv.URL + "/"
	s := open(t, b, url)
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	_, err := b.Do(ctx, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Stick"`)})
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("click that sticks the page: %v", err)
	}
	within(t, "the click", time.Since(start), 500*time.Millisecond, 100*time.Millisecond)
	start = time.Now()
	what, err := b.Recover(tctx(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Recover took %v: %s", time.Since(start), what)
	if !strings.Contains(what, "was replaced by a new tab") {
		t.Errorf("Recover: %q", what)
	}
	if s := snapshot(t, b); !hasLine(s, "fresh page") {
		t.Errorf("snapshot after Recover:\n%s", s.Text)
	}
	waitFor(t, "the old tab to close", 5*time.Second, func() bool { return len(pagesOf(t, b)) == 1 })
}

// A tab that crashed while idle is replaced by the next call, which reports
// it; Recover does the same.
func TestCrashedTab(t *testing.T) {
	b := launch(t, Options{})
	url := servePage(t, `<title>Crash</title><p>about to crash</p>`)
	open(t, b, url)
	crash(t, b)
	start := time.Now()
	s, err := b.Snapshot(tctx(t))
	if err != nil {
		t.Fatalf("snapshot after the crash: %v", err)
	}
	t.Logf("snapshot with the tab replaced after %v", time.Since(start))
	if s.URL != url || !hasLine(s, "about to crash") || len(s.Notices) == 0 || !strings.Contains(s.Notices[0], "Tab t1 crashed") {
		t.Errorf("snapshot after the crash: %s %v\n%s", s.URL, s.Notices, s.Text)
	}
	do(t, b, contract.Action{Name: contract.ActScroll, Direction: "down"})

	crash(t, b)
	start = time.Now()
	what, err := b.Recover(tctx(t))
	if err != nil || !strings.Contains(what, "crashed") || !strings.Contains(what, url) {
		t.Fatalf("Recover: %q, %v", what, err)
	}
	t.Logf("Recover replaced the crashed tab in %v: %s", time.Since(start), what)
	if s := snapshot(t, b); !hasLine(s, "about to crash") || strings.Contains(strings.Join(s.Notices, ";"), "crashed") {
		t.Errorf("snapshot after Recover: %v\n%s", s.Notices, s.Text)
	}
	if n := len(pagesOf(t, b)); n != 1 {
		t.Errorf("%d page targets after the replacements, want 1", n)
	}
}

// A crash during an action (a navigation to chrome://crash, which goto
// refuses to the model, so the test navigates as goto would) is an
// ActionError saying the tab was replaced; the next calls work.
func TestCrashDuringAction(t *testing.T) {
	b := newTab(t)
	url := servePage(t, `<title>Before</title><p>before the crash</p>`)
	open(t, b, url)
	start := time.Now()
	// The navigation is aborted at once and the renderer crashes right
	// after: the goto fails or reports the crash, and the snapshot, which may
	// start before the crash is noticed, works either way.
	o, err := b.begin(tctx(t))
	if err != nil {
		t.Fatal(err)
	}
	_, err = o.navigate("chrome://crash")
	err = o.fail(contract.ActGoto, err)
	o.end()
	if !isActionError(err) {
		t.Fatalf("goto chrome://crash: %v", err)
	}
	s := snapshot(t, b)
	t.Logf("crash recovered in %v: %v; %v", time.Since(start), err, s.Notices)
	if s.URL != url || !hasLine(s, "before the crash") {
		t.Errorf("snapshot after the crash: %s\n%s", s.URL, s.Text)
	}
	if !strings.Contains(err.Error()+strings.Join(s.Notices, ";"), "crashed") {
		t.Errorf("nothing says the tab crashed: %v; %v", err, s.Notices)
	}
}

// A killed browser process is relaunched once, with the last page
// reopened; a second death is ErrDisconnected, for good.
func TestKilledBrowser(t *testing.T) {
	b := launch(t, Options{})
	url := servePage(t, `<title>Kill</title><p>about to die</p>`)
	open(t, b, url)
	firstProfile := b.sess.profile()
	if err := syscall.Kill(b.PID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	sess := b.sess
	waitFor(t, "the connection to be lost", 10*time.Second, func() bool { return !sess.alive() })
	start := time.Now()
	s, err := b.Snapshot(tctx(t))
	if err != nil {
		t.Fatalf("snapshot after the kill: %v", err)
	}
	t.Logf("relaunched and reopened in %v", time.Since(start))
	if s.URL != url || len(s.Notices) == 0 || !strings.Contains(s.Notices[0], "relaunched") {
		t.Errorf("snapshot after the relaunch: %s %v", s.URL, s.Notices)
	}
	if b.sess.profile() == firstProfile {
		t.Error("the relaunched browser uses the old profile")
	}
	// The dead browser is cleaned up in the background.
	waitFor(t, "the dead browser's profile to go", 10*time.Second, func() bool {
		_, err := os.Stat(firstProfile)
		return errors.Is(err, os.ErrNotExist)
	})
	if pids := launcher.ProcessesUsing(firstProfile); len(pids) > 0 {
		t.Errorf("processes of the dead browser left: %v", pids)
	}
	do(t, b, contract.Action{Name: contract.ActScroll, Direction: "down"})

	// The second death is final.
	if err := syscall.Kill(b.PID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	sess = b.sess
	waitFor(t, "the connection to be lost", 10*time.Second, func() bool { return !sess.alive() })
	_, err = b.Snapshot(tctx(t))
	if !errors.Is(err, ErrDisconnected) || isActionError(err) {
		t.Errorf("snapshot after the second kill: %v", err)
	}
	if _, err := b.Recover(tctx(t)); !errors.Is(err, ErrDisconnected) {
		t.Errorf("Recover after the second kill: %v", err)
	}
	_, err = b.Do(tctx(t), contract.Action{Name: contract.ActGoto, URL: "about:blank"})
	if !errors.Is(err, ErrDisconnected) {
		t.Errorf("goto after the second kill: %v", err)
	}
	// launch's clean-up checks that Close still removes the profile.
}

// A kill during an action: the action fails with an ActionError that says
// the browser was relaunched.
func TestKilledDuringAction(t *testing.T) {
	b := launch(t, Options{})
	url := servePage(t, `<title>Kill</title><button onclick="document.title='clicked'">Go</button>`)
	s := open(t, b, url)
	ref := refOf(t, s, `button "Go"`)
	if err := syscall.Kill(b.PID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Either the click sees the browser die (and says it was relaunched),
	// or the death is noticed first and the click, on the reopened page,
	// does not know the old ref; the next snapshot says what happened.
	_, err := b.Do(tctx(t), contract.Action{Name: contract.ActClick, Ref: ref})
	if !isActionError(err) {
		t.Fatalf("click in a killed browser: %v", err)
	}
	s = snapshot(t, b)
	if s.URL != url {
		t.Errorf("after the relaunch the tab shows %s", s.URL)
	}
	if !strings.Contains(err.Error()+strings.Join(s.Notices, ";"), "relaunched") {
		t.Errorf("nothing says the browser was relaunched: %v; %v", err, s.Notices)
	}
}

// crash crashes b's current tab. Page.crash never answers; the crash event
// is what tells.
func crash(t *testing.T, b *Browser) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	crashed := make(chan struct{})
	target := b.target
	go func() {
		defer close(crashed)
		_, _ = cdp.Call(ctx, target, page.Crash, cdp.Empty{})
	}()
	t.Cleanup(func() { cancel(); <-crashed })
	dead := b.cur.dead
	waitFor(t, "the crash to be noticed", 5*time.Second, func() bool { return dead.Err() != nil })
	if !errors.Is(context.Cause(dead), ErrCrashed) {
		t.Fatalf("tab ended with %v", context.Cause(dead))
	}
}
