package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

// fetchPage's buttons send requests as saving pages do: fetch and XHR
// whose answers change the page, one whose answer navigates, one that is
// never answered, and a poll a timer sends a second after the click (after
// its own tasks: the input's grace), which is never answered either.
const fetchPage = `<title>Saving</title>
<button onclick="fetch('/slow?ms=400').then(r => r.text()).then(t => { document.getElementById('s').textContent = t; })">Save</button>
<button onclick="const x = new XMLHttpRequest(); x.open('POST', '/slow?ms=300'); x.onload = () => { document.getElementById('s').textContent = 'sent by xhr'; }; x.send('a=1')">Send</button>
<button onclick="fetch('/slow?ms=200').then(() => { location.href = '/done'; })">Save and go</button>
<button onclick="fetch('/hang').then(() => { document.getElementById('s').textContent = 'never'; })">Hang</button>
<button onclick="setTimeout(() => fetch('/hang'), 1000)">Poll</button>
<p id=s>not saved</p>`

// TestInputWaitsForItsRequests: the fetch and XHR requests a click makes
// the page send are waited for, and the tasks their answers queue, so the
// outcome says the page changed and the next snapshot shows the answer;
// one never answered holds the click fetchGrace at most; a request a timer
// sends later is not waited for; an answer that navigates is followed.
func TestInputWaitsForItsRequests(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	hang := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, fetchPage) })
	mux.HandleFunc("/done", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, `<title>Done</title><p>all saved</p>`) })
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		ms, _ := strconv.Atoi(r.URL.Query().Get("ms"))
		select {
		case <-time.After(time.Duration(ms) * time.Millisecond):
		case <-r.Context().Done():
			return
		}
		fmt.Fprint(w, "saved at last")
	})
	mux.HandleFunc("/hang", func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(hang) }) // runs before Close: the hanging answer ends
	b := newTab(t)
	s := open(t, b, srv.URL+"/")

	for _, c := range []struct{ button, shows string }{{"Save", "saved at last"}, {"Send", "sent by xhr"}} {
		out := do(t, b, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "`+c.button+`"`)})
		if !strings.HasSuffix(out, "; the page changed") {
			t.Errorf("%s: outcome %q; want the page changed", c.button, out)
		}
		if now := snapshot(t, b); !strings.Contains(now.Text, c.shows) {
			t.Errorf("%s: the snapshot after the click does not show the answer %q:\n%s", c.button, c.shows, now.Text)
		}
	}

	t0 := time.Now()
	out := do(t, b, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Hang"`)})
	if took, limit := time.Since(t0), fetchGrace+inputGrace+2*time.Second; took > limit || !strings.HasSuffix(out, "; nothing on the page changed (yet)") {
		t.Errorf("a request never answered: %q after %s; want no change within %s", out, took, limit)
	}

	t0 = time.Now()
	do(t, b, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Poll"`)})
	if took := time.Since(t0); took >= fetchGrace {
		t.Errorf("a request sent later by a timer was waited for: the click took %s", took)
	}

	o := doOutcome(t, b, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Save and go"`)})
	if !o.Navigated || !strings.Contains(o.Text, "/done") {
		t.Errorf("an answer that navigates: %+v; want the navigation to /done followed", o)
	}
}

// A tab whose requests' ends never show follows the newest maxOpenFetches
// of them: its memory is bounded, and a wait for an input's requests
// still sees them under way until they end.
func TestOpenFetchesAreBounded(t *testing.T) {
	n := newNavTracker("tab", "frame", "loader", "about:blank", 0, func(error) {})
	send := func(i int) {
		n.handle(&network.EventRequestWillBeSent{RequestID: network.RequestID(fmt.Sprint("r", i)), Type: network.ResourceTypeFetch})
	}
	for i := range 3 * maxOpenFetches {
		send(i)
	}
	s0 := n.state()
	if len(s0.fetchOpen) != maxOpenFetches {
		t.Fatalf("%d requests followed, want %d", len(s0.fetchOpen), maxOpenFetches)
	}
	send(3 * maxOpenFetches) // an input's request
	if s := n.state(); !s.fetching(s0.fetches, -1) || len(s.fetchOpen) != maxOpenFetches {
		t.Fatalf("the newest request: fetching %v, %d followed", s.fetching(s0.fetches, -1), len(s.fetchOpen))
	}
	n.handle(&network.EventLoadingFinished{RequestID: network.RequestID(fmt.Sprint("r", 3*maxOpenFetches))})
	if s := n.state(); s.fetching(s0.fetches, -1) {
		t.Fatal("the newest request ended but is still under way")
	}
}
