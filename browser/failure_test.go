package browser

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"

	"github.com/webagent/webagent/agent"
)

func TestCrashedTab(t *testing.T) {
	b := launch(t, Options{})
	open(t, b, servePage(t, `<title>Crash</title><p>about to crash</p>`))
	// Page.crash never answers; the crash event is what tells.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	crashed := make(chan struct{})
	go func() {
		defer close(crashed)
		_, _ = cdp.Call(ctx, b.target, page.Crash, cdp.Empty{})
	}()
	defer func() { cancel(); <-crashed }()
	start := time.Now()
	waitFor(t, "the crash to be noticed", 5*time.Second, func() bool { return b.broken.Err() != nil })
	_, err := b.Snapshot(tctx(t))
	if !errors.Is(err, ErrCrashed) || isActionError(err) {
		t.Errorf("snapshot after the crash: %v", err)
	}
	if _, err := b.Do(tctx(t), agent.Action{Name: agent.ActScroll, Direction: "down"}); !errors.Is(err, ErrCrashed) {
		t.Errorf("scroll after the crash: %v", err)
	}
	t.Logf("crash noticed after %v", time.Since(start))
}

func TestKilledBrowser(t *testing.T) {
	b := launch(t, Options{})
	open(t, b, servePage(t, `<title>Kill</title><p>about to die</p>`))
	if err := b.process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the tab to be marked broken", 10*time.Second, func() bool { return b.broken.Err() != nil })
	_, err := b.Snapshot(tctx(t))
	if !errors.Is(err, ErrDisconnected) || isActionError(err) {
		t.Errorf("snapshot of a killed browser: %v", err)
	}
	_, err = b.Do(tctx(t), agent.Action{Name: agent.ActGoto, URL: "about:blank"})
	if !errors.Is(err, ErrDisconnected) {
		t.Errorf("goto in a killed browser: %v", err)
	}
	// launch's clean-up checks that Close still removes the profile.
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
		do(t, shared, agent.Action{Name: agent.ActClick, Ref: refOf(t, s, link)})
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		got, err := shared.Snapshot(ctx)
		cancel()
		if err != nil || got.Title != "Links" {
			t.Errorf("snapshot after clicking %s: %v, title %q", link, err, got.Title)
		}
	}
	_, err := shared.Do(tctx(t), agent.Action{Name: agent.ActGoto, URL: srv.URL + "/file"})
	if !isActionError(err) {
		t.Errorf("goto a download: %v", err)
	}
}
