package browser

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"

	"github.com/webagent/webagent/browser/launcher"
	"github.com/webagent/webagent/contract"
)

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
	b := launch(t, Options{})
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

func TestNavigationsThatDoNotCommit(t *testing.T) {
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
