package browser

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

func TestWaitFor(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Later</title>
<button onclick="setTimeout(() => { const p = document.createElement('p'); p.textContent = 'Payment   accepted'; document.body.append(p); }, 300)">Pay</button>
<button onclick="setTimeout(() => { document.getElementById('later').hidden = false; }, 300)">Show</button>
<button id=later hidden>Continue</button>
<button onclick="setTimeout(() => customElements.define('my-box', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<p>shadow words</p>'; }
}), 200)">Box</button>
<my-box></my-box>`))
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Pay")})
	start := time.Now()
	out := do(t, shared, contract.Action{Name: contract.ActWaitFor, Text: "payment accepted"})
	if took := time.Since(start); took < 100*time.Millisecond || !strings.Contains(out, `the text "payment accepted" appeared on the page`) {
		t.Errorf("wait_for text: %q after %v", out, took)
	}
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Box")})
	// Seen is the snapshot from before the click, as the loop passes the
	// model's latest: the words count as appearing even when the element
	// was defined before the wait began (a loaded machine).
	if out := do(t, shared, contract.Action{Name: contract.ActWaitFor, Text: "shadow words", Seen: s.Text}); !strings.Contains(out, "appeared on the page") {
		t.Errorf("wait_for text in a shadow root: %q", out)
	}

	// A ref that becomes visible: the snapshot did not show it, so take
	// its ref from a snapshot while it is shown by the test.
	evalPage[any](t, shared, "document.getElementById('later').hidden = false")
	later := ref(t, snapshot(t, shared), "button", "Continue")
	evalPage[any](t, shared, "document.getElementById('later').hidden = true")
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Show")})
	out = do(t, shared, contract.Action{Name: contract.ActWaitFor, Ref: later})
	// The name part depends on the walker's describe (snapName.js), which
	// may remember the empty name it computed while the button was hidden.
	if !strings.HasPrefix(out, `button "`) || !strings.HasSuffix(out, ` [ref=`+later+`] is visible`) {
		t.Errorf("wait_for ref: %q", out)
	}

	// The caller's deadline ends a wait that never succeeds, promptly.
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start = time.Now()
	_, err := shared.Do(ctx, contract.Action{Name: contract.ActWaitFor, Text: "never shown"})
	if took := time.Since(start); !errors.Is(err, context.DeadlineExceeded) || took > 400*time.Millisecond {
		t.Errorf("wait_for with a deadline: %v after %v", err, took)
	}
	// The browser is usable at once.
	if out := do(t, shared, contract.Action{Name: contract.ActWaitFor, Text: "Payment accepted", State: contract.WaitDisappear, Ref: ref(t, s, "button", "Pay")}); !strings.Contains(out, "is no longer in") {
		t.Errorf("wait_for after a deadline: %q", out)
	}
	if _, err := shared.Do(tctx(t), contract.Action{Name: contract.ActWaitFor}); !isActionError(err) {
		t.Errorf("wait_for without text or ref: %v", err)
	}
}

func TestWaitForTextOnTheNextPage(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	base := serve(t, map[string]string{
		"/":     `<title>Form</title><button onclick="setTimeout(() => location = '/done', 200)">Submit</button>`,
		"/done": `<title>Done</title><p>Order placed</p>`,
	})
	s := open(t, shared, base+"/")
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Submit")})
	out := do(t, shared, contract.Action{Name: contract.ActWaitFor, Text: "Order placed"})
	if !strings.Contains(out, "appeared on the page") || !strings.Contains(out, "navigated to "+base+"/done") {
		t.Errorf("wait_for across a navigation: %q", out)
	}
}

func TestWaitForChange(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, waitPage))
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Load menu"`)})
	t0 := time.Now()
	out := do(t, shared, contract.Action{Name: contract.ActWaitFor, Text: "Settings"})
	if !strings.Contains(out, `the text "Settings" appeared on the page`) {
		t.Errorf("outcome = %q", out)
	}
	if n := evalPage[int](t, shared, "document.querySelectorAll('#menu li').length"); n != 2 {
		t.Errorf("wait_for returned before the entry appeared (after %v): %d items", time.Since(t0), n)
	}
	// Already there and nothing new: the wait runs to its deadline.
	ctx, cancel := contextWithTimeout(t, 700*time.Millisecond)
	defer cancel()
	if _, err := shared.Do(ctx, contract.Action{Name: contract.ActWaitFor, Text: "Home"}); err == nil {
		t.Errorf("wait_for a text already shown returned at once")
	}
	s = snapshot(t, shared)
	out = do(t, shared, contract.Action{Name: contract.ActWaitFor, Ref: refOf(t, s, `button "Continue"`), State: contract.WaitEnabled})
	if !strings.Contains(out, "is enabled") || evalPage[bool](t, shared, "document.getElementById('go').disabled") {
		t.Errorf("wait for enabled: %q", out)
	}
	if got := evalPage[bool](t, shared, "!document.getElementById('spin')"); !got {
		t.Errorf("the spinner is still there")
	}
	out = do(t, shared, contract.Action{Name: contract.ActWaitFor, Text: "Loading…", State: contract.WaitDisappear})
	if !strings.Contains(out, "is no longer on the page") {
		t.Errorf("wait for a text to go: %q", out)
	}
	t1 := time.Now()
	out = do(t, shared, contract.Action{Name: contract.ActWait, MS: 300})
	if d := time.Since(t1); d < 300*time.Millisecond || !strings.HasPrefix(out, "waited 300 ms") {
		t.Errorf("wait 300 ms took %v: %q", d, out)
	}
}

// The text a click of the same reply made appear, which the model's latest
// snapshot did not show, counts as appearing; the text the snapshot showed
// must show once more.
func TestWaitForCountsFromTheSnapshotSeen(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Seen</title><p>Wait for Done.</p>
<button onclick="const p = document.createElement('p'); p.textContent = 'Done'; document.body.append(p)">Finish</button>`))
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Finish"`)})
	// The page shows "Done" twice now, the snapshot once: it appeared.
	out := do(t, shared, contract.Action{Name: contract.ActWaitFor, Text: "Done", Seen: s.Text})
	if !strings.Contains(out, `the text "Done" appeared`) {
		t.Errorf("outcome = %q", out)
	}
	ctx, cancel := contextWithTimeout(t, 600*time.Millisecond)
	defer cancel()
	if _, err := shared.Do(ctx, contract.Action{Name: contract.ActWaitFor, Text: "Done", Seen: snapshot(t, shared).Text}); err == nil {
		t.Errorf("wait_for a text the latest snapshot shows returned at once")
	}
}

// A menu that fills in after a delay; its entry is quoted on the page
// already, as a task's instruction would.
const waitPage = `<title>Wait</title>
<p>Task: wait for the menu entry "Settings" and open it.</p>
<button onclick="setTimeout(() => { const li = document.createElement('li'); li.textContent = 'Settings'; document.getElementById('menu').append(li); }, 400)">Load menu</button>
<ul id=menu aria-label="Menu" onclick=""><li>Home</li></ul>
<div id=spin role=status>Loading…</div>
<button id=go disabled>Continue</button>
<script>setTimeout(() => { document.getElementById('spin').remove(); document.getElementById('go').disabled = false; }, 600);</script>`

// contextWithTimeout is a context for one call that must end by d.
func contextWithTimeout(t *testing.T, d time.Duration) (context.Context, context.CancelFunc) {
	t.Helper()
	return context.WithTimeout(context.Background(), d)
}
