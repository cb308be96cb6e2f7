package browser

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

// Isolated Browsers do not share cookies, in the same launched or attached
// Chromium; without Isolated, tabs of one attached Chromium do.
func TestIsolated(t *testing.T) {
	tier.Slow(t)
	base := cookieServer(t)
	wsURL, httpURL, _ := startChromium(t)
	waitFor(t, "the first tab", 10*time.Second, func() bool { return len(pageTargets(t, httpURL)) > 0 })
	before := len(pageTargets(t, httpURL))
	attach := func(isolated bool) *Browser {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		b, err := Launch(ctx, Options{CDPURL: wsURL, Isolated: isolated})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		return b
	}
	a, c := attach(true), attach(true)
	open(t, a, base+"/set")
	wantLine(t, open(t, a, base+"/"), "cookie: first")
	wantLine(t, open(t, c, base+"/"), "cookie: none")
	// A third, not isolated, does not see the isolated cookie either.
	d := attach(false)
	wantLine(t, open(t, d, base+"/"), "cookie: none")
	for _, b := range []*Browser{a, c, d} {
		if err := b.Close(); err != nil {
			t.Error(err)
		}
	}
	if n := len(pageTargets(t, httpURL)); n != before {
		t.Errorf("%d tabs after Close, want %d", n, before)
	}
	// Launched and isolated, also with popups (which open in the same
	// context).
	l := launch(t, Options{Isolated: true})
	open(t, l, base+"/set")
	s := open(t, l, servePage(t, `<title>Pop</title><button onclick="window.open('`+base+`/')">Open</button>`))
	out := do(t, l, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Open"`)})
	wantLine(t, snapshot(t, l), "cookie: first")
	t.Log(out)
}

// cookieServer sets a cookie on /set and shows the cookies it gets on /.
func cookieServer(t *testing.T) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/set", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "who", Value: "first", Path: "/"})
		w.Write([]byte(`<title>Set</title><p>set</p>`))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie("who")
		v := "none"
		if err == nil {
			v = c.Value
		}
		w.Write([]byte(`<title>Show</title><p>cookie: ` + v + `</p>`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}
