package browser

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
)

func TestGotoErrors(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	// A port nobody listens on.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + l.Addr().String() + "/"
	l.Close()
	_, err = shared.Do(tctx(t), contract.Action{Name: contract.ActGoto, URL: refused})
	if !isActionError(err) || !strings.Contains(err.Error(), "ERR_CONNECTION_REFUSED") {
		t.Errorf("goto a refused port: %v", err)
	}
	_, err = shared.Do(tctx(t), contract.Action{Name: contract.ActGoto, URL: ""})
	if !isActionError(err) {
		t.Errorf("goto without a URL: %v", err)
	}
	// The browser still works.
	s := open(t, shared, servePage(t, `<title>Fine</title><p>fine</p>`))
	wantLine(t, s, "fine")
}

func TestGotoDeadline(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	hang := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-hang:
		}
	})
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>OK</title><p>still works</p>`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	defer close(hang)

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := shared.Do(ctx, contract.Action{Name: contract.ActGoto, URL: srv.URL + "/hang"})
	took := time.Since(start)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("goto with a 300ms deadline: %v, want DeadlineExceeded", err)
	}
	if took > 600*time.Millisecond {
		t.Errorf("goto returned after %v", took)
	}
	s := open(t, shared, srv.URL+"/ok")
	wantLine(t, s, "still works")
}

func TestNormalizeURL(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	for in, want := range map[string]string{
		"http://127.0.0.1:8080/x": "http://127.0.0.1:8080/x",
		"  example.com/a ":        "https://example.com/a",
		"about:blank":             "about:blank",
		"data:text/html,<p>hi":    "data:text/html,<p>hi",
	} {
		if got, err := normalizeURL(in); err != nil || got != want {
			t.Errorf("normalizeURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	// An empty URL is refused before anything is sent (Validate).
	if _, err := shared.Do(tctx(t), contract.Action{Name: contract.ActGoto, URL: " "}); !isActionError(err) || !strings.Contains(err.Error(), "goto needs a URL") {
		t.Errorf("goto of nothing: %v", err)
	}
}
