package browser

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
)

// writeSite is a site with a form that posts, a button that saves with
// fetch and PUT, and a search form that gets; it notes every request
// that reaches it.
type writeSite struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string // "METHOD /path body"
}

const writePage = `<!doctype html><title>Contact</title>
<form method="post" action="/send"><label>Message <input name="message"></label><button>Send</button></form>
<button id="save" onclick="fetch('/api/note', {method: 'PUT', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({note: 'remember the milk'})})
  .then(r => { document.getElementById('status').textContent = 'saved ' + r.status })
  .catch(e => { document.getElementById('status').textContent = 'save failed' })">Save note</button>
<p id="status">not saved</p>
<form method="get" action="/search"><label>Search <input name="q"></label><button>Search</button></form>`

func startWriteSite(t *testing.T) *writeSite {
	s := &writeSite{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/favicon.ico" {
			http.NotFound(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.seen = append(s.seen, strings.TrimSpace(fmt.Sprintf("%s %s %s", r.Method, r.URL.RequestURI(), body)))
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, writePage)
		case "/search":
			fmt.Fprintf(w, "<!doctype html><title>Results</title><p>results for %s</p>", r.URL.Query().Get("q"))
		default:
			fmt.Fprint(w, "<!doctype html><title>Done</title><p>thank you</p>")
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *writeSite) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

// TestReadOnly: a read-only browser stops the form's POST and the
// fetch's PUT inside Chromium: the site receives neither, the page stays
// where it was (the form) or sees its request fail, the action that
// caused the write fails saying what would have been sent, and
// TakeBlocked holds method, URL and payload. A GET form still works.
func TestReadOnly(t *testing.T) {
	site := startWriteSite(t)
	b := launch(t, Options{ReadOnly: true})
	snap := open(t, b, site.URL+"/")
	do(t, b, contract.Action{Name: contract.ActType, Ref: refOf(t, snap, `textbox "Message"`), Text: "hello there"})

	_, err := b.Do(tctx(t), contract.Action{Name: contract.ActClick, Ref: refOf(t, snap, `button "Send"`)})
	if !isActionError(err) || !strings.HasPrefix(err.Error(), "blocked by --read-only: POST "+site.URL+"/send would have sent: message=hello+there") ||
		strings.Contains(err.Error(), "navigated") {
		t.Fatalf("click Send: %v", err)
	}
	after := snapshot(t, b)
	if after.URL != site.URL+"/" || !hasLine(after, `textbox "Message" value="hello there" [ref=`+refOf(t, after, `textbox "Message"`)+`]`) {
		t.Errorf("the page did not stay on the form: %s\n%s", after.URL, after.Text)
	}

	// The fetch may reach Chromium's interceptor after the click has
	// returned: then the next snapshot tells it.
	_, err = b.Do(tctx(t), contract.Action{Name: contract.ActClick, Ref: refOf(t, after, `button "Save note"`)})
	told := func() string {
		if err != nil {
			return err.Error()
		}
		return strings.Join(snapshot(t, b).Notices, "; ")
	}()
	if !strings.Contains(told, `blocked by --read-only: PUT `+site.URL+`/api/note would have sent: {"note":"remember the milk"}`) {
		t.Errorf("the model was not told of the PUT: %s", told)
	}
	waitFor(t, "the page to see its request fail", 5*time.Second, func() bool {
		return evalPage[string](t, b, "document.getElementById('status').textContent") == "save failed"
	})

	blocked := b.TakeBlocked()
	if len(blocked) != 2 {
		t.Fatalf("blocked: %+v", blocked)
	}
	if p := blocked[0]; p.Method != "POST" || p.URL != site.URL+"/send" || p.Payload != "message=hello+there" || p.Type != "Document" {
		t.Errorf("the form's post: %+v", p)
	}
	if p := blocked[1]; p.Method != "PUT" || p.URL != site.URL+"/api/note" || p.Payload != `{"note":"remember the milk"}` || (p.Type != "Fetch" && p.Type != "XHR") {
		t.Errorf("the fetch: %+v", p)
	}
	if again := b.TakeBlocked(); len(again) != 0 {
		t.Errorf("taken twice: %+v", again)
	}

	snap = snapshot(t, b)
	do(t, b, contract.Action{Name: contract.ActType, Ref: refOf(t, snap, `textbox "Search"`), Text: "milk", Submit: true})
	waitFor(t, "the search", 5*time.Second, func() bool { return strings.Contains(snapshot(t, b).Text, "results for milk") })
	for _, r := range site.requests() {
		if !strings.HasPrefix(r, "GET ") {
			t.Errorf("a request that writes reached the site: %s", r)
		}
	}
	if rs := site.requests(); len(rs) != 2 || rs[1] != "GET /search?q=milk" {
		t.Errorf("the site saw %q", rs)
	}
}

// TestNotReadOnlyWrites: the same page without ReadOnly posts as usual,
// so the test above measures the option, not the page.
func TestNotReadOnlyWrites(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	site := startWriteSite(t)
	snap := open(t, shared, site.URL+"/")
	do(t, shared, contract.Action{Name: contract.ActType, Ref: refOf(t, snap, `textbox "Message"`), Text: "hi"})
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, snap, `button "Send"`)})
	waitFor(t, "the post", 5*time.Second, func() bool {
		rs := site.requests()
		return len(rs) > 1 && rs[1] == "POST /send message=hi"
	})
	if got := shared.TakeBlocked(); len(got) != 0 {
		t.Errorf("blocked without ReadOnly: %+v", got)
	}
}

// TestReadOnlyBeaconAndWorker: a beacon and a dedicated worker's POST
// are stopped too. Made by the page as it loads, they are the page's own:
// goto tells them and does not fail.
func TestReadOnlyBeaconAndWorker(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path)
		mu.Unlock()
		switch r.URL.Path {
		case "/worker.js":
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, `fetch('/from-worker', {method: 'POST', body: 'w=1'}).then(() => postMessage('sent'), () => postMessage('refused'))`)
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<!doctype html><title>B</title><p id="s">-</p><script>
navigator.sendBeacon('/beacon', 'b=1');
const wk = new Worker('/worker.js'); wk.onmessage = (e) => { document.getElementById('s').textContent = e.data };
</script>`)
		}
	}))
	defer srv.Close()
	b := launch(t, Options{ReadOnly: true})
	out := do(t, b, contract.Action{Name: contract.ActGoto, URL: srv.URL + "/"})
	waitFor(t, "the worker's answer", 10*time.Second, func() bool {
		return evalPage[string](t, b, "document.getElementById('s').textContent") != "-"
	})
	got := evalPage[string](t, b, "document.getElementById('s').textContent")
	var blocked []string
	waitFor(t, "two blocked requests", 5*time.Second, func() bool {
		for _, r := range b.TakeBlocked() {
			blocked = append(blocked, r.Method+" "+r.URL+" "+r.Type+" "+r.Payload)
		}
		return len(blocked) >= 2
	})
	mu.Lock()
	defer mu.Unlock()
	for _, s := range seen {
		if strings.HasPrefix(s, "POST") {
			t.Errorf("reached the site: %s", s)
		}
	}
	if got != "refused" || len(blocked) != 2 || !strings.Contains(strings.Join(blocked, "\n"), "POST "+srv.URL+"/beacon Ping b=1") ||
		!strings.Contains(strings.Join(blocked, "\n"), "POST "+srv.URL+"/from-worker") {
		t.Errorf("worker %q, blocked %q", got, blocked)
	}
	if !strings.Contains(out, "blocked by --read-only: POST "+srv.URL+"/beacon would have sent: b=1") {
		t.Errorf("goto's outcome does not tell the beacon: %s", out)
	}
}

// TestCausedWrite: the writes that fail an action are those its input
// plainly caused: a form's page load, or a fetch or XHR to the page's own
// site; a beacon, a request to another site or a write during goto is
// told, not an error.
func TestCausedWrite(t *testing.T) {
	page := "https://shop.example.com/cart"
	req := func(typ, u string) []contract.BlockedRequest {
		return []contract.BlockedRequest{{Method: "POST", Type: typ, URL: u}}
	}
	for _, c := range []struct {
		action  string
		blocked []contract.BlockedRequest
		want    bool
	}{
		{contract.ActClick, req("Document", "https://shop.example.com/order"), true},
		{contract.ActClick, req("Fetch", "https://api.example.com/order"), true},
		{contract.ActType, req("XHR", "https://shop.example.com/search-log"), true},
		{contract.ActClick, req("Ping", "https://shop.example.com/beacon"), false},
		{contract.ActClick, req("Fetch", "https://www.google-analytics.com/g/collect"), false},
		{contract.ActGoto, req("Document", "https://shop.example.com/sso"), false},
		{contract.ActScroll, req("Fetch", "https://shop.example.com/seen"), false},
		{contract.ActClick, nil, false},
	} {
		if got := causedWrite(c.action, page, c.blocked); got != c.want {
			t.Errorf("%s %+v: %v", c.action, c.blocked, got)
		}
	}
	if !sameSite("http://127.0.0.1:80/", "http://127.0.0.1:81/x") || sameSite("http://127.0.0.1/", "http://127.0.0.2/") {
		t.Error("sameSite on addresses")
	}
}
