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
)

// The tests of this file make a navigation meet a snapshot or an action at
// a chosen moment: the page replaces getBoundingClientRect with a function
// that, once armed, starts the navigation from inside the walker's or the
// action's own script, and then behaves as before. No timing is involved.

// tripwire arms a one-shot hook on the method of a prototype (such as
// Element.prototype.getBoundingClientRect, which the walker calls) that
// runs the JavaScript statement what when the browser's code next calls
// it. armed starts true for the first call, false when the test arms it
// later with window.arm().
func tripwire(method, what string, armed bool) string {
	return fmt.Sprintf(`<script>
(() => {
  const proto = %[1]s.prototype, name = %[2]q;
  const real = proto[name];
  let armed = %[3]t;
  window.arm = () => { armed = true; return true; };
  proto[name] = function (...args) {
    if (armed) { armed = false; %[4]s }
    return real.apply(this, args);
  };
})();
</script>`, strings.Split(method, ".")[0], strings.Split(method, ".")[1], armed, what)
}

// TestSnapshotMeetsNavigation replaces the document while the walker reads
// it: by a navigation the page starts, and by document.open, which leaves
// the page without a document element for a moment (the "reading
// 'getBoundingClientRect' of null" failure seen on a busy machine). Each
// snapshot must succeed and show the new document.
func TestSnapshotMeetsNavigation(t *testing.T) {
	cases := []struct {
		name, trigger, want string
	}{
		{"navigation", `location.href = '/second';`, "the second page"},
		{"document.open", `document.open(); setTimeout(() => { document.write('<title>Written</title><p>the written document</p>'); document.close(); }, 0);`, "the written document"},
		{"reload", `location.reload();`, "the first page"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := serve(t, map[string]string{
				"/first":  `<title>First</title><p>the first page</p><button>Old button</button>` + tripwire("Element.getBoundingClientRect", c.trigger, false),
				"/second": `<title>Second</title><p>the second page</p><button>New button</button>`,
			})
			open(t, shared, base+"/first")
			evalPage[bool](t, shared, "window.arm()")
			s, err := shared.Snapshot(tctx(t))
			if err != nil {
				t.Fatalf("snapshot across a %s: %v", c.name, err)
			}
			if !strings.Contains(s.Text, c.want) {
				t.Errorf("snapshot does not show %q:\n%s", c.want, s.Text)
			}
			if c.name != "reload" && strings.Contains(s.Text, "the first page") {
				t.Errorf("snapshot still shows the replaced document:\n%s", s.Text)
			}
			t.Logf("notices %q\n%s", s.Notices, s.Text)
		})
	}
}

// TestSnapshotFrameNavigatesMidWalk: a same-origin frame is navigated while
// the walker reads the page; the snapshot waits for the frame's new
// document and shows it.
func TestSnapshotFrameNavigatesMidWalk(t *testing.T) {
	base := serve(t, map[string]string{
		"/outer": `<title>Outer</title><p>outer text</p><iframe title="Form frame" src="/form" width=400 height=200></iframe>` +
			tripwire("Element.getBoundingClientRect", `document.querySelector('iframe').contentWindow.location.href = '/thanks';`, false),
		"/form":   `<p>the form</p><button>Send</button>`,
		"/thanks": `<p>thank you for your message</p>`,
	})
	s := open(t, shared, base+"/outer")
	if !strings.Contains(s.Text, "the form") {
		t.Fatalf("the frame's first document is not shown:\n%s", s.Text)
	}
	evalPage[bool](t, shared, "window.arm()")
	s = snapshot(t, shared)
	if !strings.Contains(s.Text, "thank you for your message") || strings.Contains(s.Text, "the form") {
		t.Errorf("the snapshot does not show the frame's new document:\n%s", s.Text)
	}
}

// TestSnapshotCrossOriginFrameDetachedMidSnapshot: a frame of another site
// is removed right after the page's walker ran, while the snapshot attaches
// to the frame's own target to read it.
func TestSnapshotCrossOriginFrameDetachedMidSnapshot(t *testing.T) {
	frame := serve(t, map[string]string{"/f": `<p>frame text</p><button>Frame button</button>`})
	frameURL := strings.Replace(frame, "127.0.0.1", "localhost", 1) + "/f"
	base := serve(t, map[string]string{
		"/outer": `<title>Outer</title><p>outer text</p><iframe title="Other site" src="` + frameURL + `" width=400 height=200></iframe>` +
			tripwire("Element.getBoundingClientRect", `setTimeout(() => document.querySelector('iframe').remove(), 0);`, false),
	})
	s := open(t, shared, base+"/outer")
	if !strings.Contains(s.Text, "frame text") {
		t.Fatalf("the frame's content is not shown:\n%s", s.Text)
	}
	for i := range 3 {
		if i == 0 {
			evalPage[bool](t, shared, "window.arm()")
		}
		s, err := shared.Snapshot(tctx(t))
		if err != nil {
			t.Fatalf("snapshot %d after the frame went away: %v", i, err)
		}
		if !strings.Contains(s.Text, "outer text") {
			t.Errorf("snapshot %d lost the page:\n%s", i, s.Text)
		}
		if i > 0 && strings.Contains(s.Text, "frame text") {
			t.Errorf("snapshot %d still shows the removed frame:\n%s", i, s.Text)
		}
	}
}

// TestClickMeetsNavigation: the page navigates while the click checks its
// target (the element and its document go away under the action). The
// outcome says where the page went, not a browser error.
func TestClickMeetsNavigation(t *testing.T) {
	base := serve(t, map[string]string{
		"/start":     `<title>Start</title><button onclick="document.title='clicked'">Buy</button>` + tripwire("Document.elementFromPoint", `location.href = '/elsewhere';`, false),
		"/elsewhere": `<title>Elsewhere</title><p>somewhere else</p>`,
	})
	s := open(t, shared, base+"/start")
	ref := refOf(t, s, `button "Buy"`)
	evalPage[bool](t, shared, "window.arm()")
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

func TestCPUThrottleOutOfRange(t *testing.T) {
	for _, rate := range []float64{0.5, -1, MaxCPUThrottle + 1} {
		if _, err := Launch(tctx(t), Options{CPUThrottle: rate}); err == nil || !strings.Contains(err.Error(), "CPU throttle") {
			t.Errorf("Launch with CPUThrottle %g: err = %v, want a range error", rate, err)
		}
	}
}
