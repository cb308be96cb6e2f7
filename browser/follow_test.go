package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

func TestClickNavigatesAndWaitsForLoad(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Start</title><a href="/next">Go on</a>`)
	})
	mux.HandleFunc("/next", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Next</title><img src="/slow.png" alt="slow image"><p>next page</p>`)
	})
	mux.HandleFunc("/slow.png", func(w http.ResponseWriter, r *http.Request) {
		select { // delays the load event
		case <-time.After(300 * time.Millisecond):
		case <-r.Context().Done():
		}
		w.WriteHeader(http.StatusNotFound)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	s := open(t, shared, srv.URL+"/")
	out := do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `link "Go on"`)})
	if !strings.Contains(out, `navigated to `+srv.URL+`/next ("Next")`) {
		t.Errorf("outcome = %q", out)
	}
	if state := evalPage[string](t, shared, "document.readyState"); state != "complete" {
		t.Errorf("click returned before the load event: readyState %q", state)
	}
}

// TestClickMeetsNavigation: the page navigates while the click checks its
// target (the element and its document go away under the action). The
// outcome says where the page went, not a browser error.
func TestClickMeetsNavigation(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	base := serve(t, map[string]string{
		"/start":     `<title>Start</title><button onclick="document.title='clicked'">Buy</button>`,
		"/elsewhere": `<title>Elsewhere</title><p>somewhere else</p>`,
	})
	s := open(t, shared, base+"/start")
	ref := refOf(t, s, `button "Buy"`)
	armTripwire(t, shared, "Document.elementFromPoint", `location.href = '/elsewhere';`)
	out, err := shared.Do(tctx(t), contract.Action{Name: contract.ActClick, Ref: ref})
	if err != nil {
		t.Fatalf("click during a navigation: %v", err)
	}
	if !strings.Contains(out.Text, "navigated to "+base+"/elsewhere") || !out.Navigated {
		t.Errorf("outcome = %+v; want it to say where the page went, and Navigated", out)
	}
	if s := snapshot(t, shared); !strings.Contains(s.Text, "somewhere else") {
		t.Errorf("the next snapshot is not of the new page:\n%s", s.Text)
	}
}

// TestClickSubmitsFormLate: the click queues a task that submits the form,
// on a page slowed down four times (CPU throttling, as --cpu-throttle does),
// and the result page answers slowly. The click still reports the
// navigation, and the next snapshot shows the result page.
func TestClickSubmitsFormLate(t *testing.T) {
	tier.Slow(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/form", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Order</title><form action="/done" method="post" id=f><input name=q value=1></form>
<button onclick="setTimeout(() => document.getElementById('f').requestSubmit(), 0)">Place order</button>`)
	})
	mux.HandleFunc("/done", func(w http.ResponseWriter, r *http.Request) {
		select { // the document arrives late
		case <-time.After(300 * time.Millisecond):
		case <-r.Context().Done():
		}
		fmt.Fprint(w, `<title>Done</title><p>Thank you for your order!</p>`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := Launch(ctx, Options{Logger: testLogger(), CPUThrottle: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	s := open(t, b, srv.URL+"/form")
	out := do(t, b, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Place order"`)})
	if !strings.Contains(out, "navigated to "+srv.URL+"/done") {
		t.Errorf("outcome = %q; want the navigation the click caused", out)
	}
	if s := snapshot(t, b); !strings.Contains(s.Text, "Thank you for your order!") {
		t.Errorf("snapshot after the order:\n%s", s.Text)
	}
}

// A page runs the tasks a click queued without waiting for its next frame
// (Chromium's DeferRendererTasksAfterInput is off), so the click's check of
// what it did is not held up by a frame. With the deferral, a click's timer
// runs after the frame every time (measured: 0 of 80 clicks); without it,
// before the frame unless a frame was about to begin (measured here: 186 of
// 200 clicks).
func TestInputTasksAreNotDeferredToTheNextFrame(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Order</title>
<button onclick="order()">Go</button>
<script>
window.runs = [];
function order() {
  const run = [];
  runs.push(run);
  document.body.dataset.n = runs.length; // the page has to be drawn again
  setTimeout(() => run.push('task'));
  requestAnimationFrame(() => run.push('frame'));
}
</script>`))
	btn := refOf(t, s, `button "Go"`)
	for range 10 {
		do(t, shared, contract.Action{Name: contract.ActClick, Ref: btn})
	}
	runs := evalPage[[][]string](t, shared, "runs")
	first := 0
	for _, r := range runs {
		if len(r) > 0 && r[0] == "task" {
			first++
		}
	}
	if len(runs) != 10 || first == 0 {
		t.Errorf("the click's timer ran before the next frame in %d of %d clicks (%v); want some", first, len(runs), runs)
	}
}

// TestClickFollowsFrameFormLate: a form in an iframe is sent with a click,
// and its answer comes late, after the grace a snapshot gives a frame
// that loads by itself (as on a busy machine). The click follows the
// frame's navigation it caused, so the next snapshot shows the answer
// rather than a frame still loading.
func TestClickFollowsFrameFormLate(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Contact</title><h1>Contact us</h1><iframe src="/form" title="Contact form"></iframe>`)
	})
	mux.HandleFunc("GET /form", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><form method="post" action="/form"><input name="q" aria-label="Message" value="hi"><button>Send message</button></form>`)
	})
	mux.HandleFunc("POST /form", func(w http.ResponseWriter, r *http.Request) {
		select { // the answer comes after frameGrace
		case <-time.After(frameGrace + time.Second):
		case <-r.Context().Done():
		}
		fmt.Fprint(w, `<!doctype html><p>We will reply soon.</p>`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	s := open(t, shared, srv.URL+"/")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := shared.Do(ctx, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Send message"`)}); err != nil {
		t.Fatal(err)
	}
	s, err := shared.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.Text, "We will reply soon.") {
		t.Errorf("the snapshot after the click does not show the frame's answer:\n%s\nnotices %q", s.Text, s.Notices)
	}
}
