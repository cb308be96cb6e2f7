package browser

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

func TestDialogsDoNotBlock(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Dialogs</title>
<button onclick="alert('Saved!')">Save</button>
<button onclick="document.getElementById('r').textContent = confirm('Delete it?') ? 'yes' : 'no'">Delete</button>
<button onclick="document.getElementById('r').textContent = prompt('Your name?', 'Ann')">Name</button>
<p id=r></p>`))
	out := do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Save"`)})
	if !strings.Contains(out, `alert dialog "Saved!" was accepted`) {
		t.Errorf("outcome = %q", out)
	}
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Delete"`)})
	s = snapshot(t, shared)
	if len(s.Notices) != 2 || !strings.Contains(s.Notices[0], `alert dialog "Saved!"`) || !strings.Contains(s.Notices[1], `confirm dialog "Delete it?" was accepted`) {
		t.Errorf("notices = %q", s.Notices)
	}
	wantLine(t, s, "yes")
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Name"`)})
	s = snapshot(t, shared)
	if len(s.Notices) != 1 || !strings.Contains(s.Notices[0], `prompt dialog "Your name?" was answered with "Ann"`) {
		t.Errorf("notices = %q", s.Notices)
	}
	wantLine(t, s, "Ann")
	if s = snapshot(t, shared); len(s.Notices) != 0 {
		t.Errorf("notices were not cleared: %q", s.Notices)
	}
}

func TestBeforeUnloadDoesNotBlock(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	away := servePage(t, `<title>Away</title><p>left the draft</p>`)
	s := open(t, shared, servePage(t, `<title>Draft</title>
<textarea aria-label="Draft">unsaved</textarea>
<script>addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = ''; });</script>`))
	// A user gesture arms the beforeunload prompt.
	do(t, shared, contract.Action{Name: contract.ActType, Ref: refOf(t, s, `textbox "Draft"`), Text: "changed"})
	out := do(t, shared, contract.Action{Name: contract.ActGoto, URL: away})
	if !strings.Contains(out, "beforeunload dialog was accepted") {
		t.Errorf("outcome = %q", out)
	}
	s = snapshot(t, shared)
	// The notices: the answered dialog, then what changed (the URL).
	if s.Title != "Away" || len(s.Notices) != 2 || !strings.Contains(s.Notices[0], "beforeunload") {
		t.Errorf("after leaving: title %q, notices %q", s.Title, s.Notices)
	}
	wantLine(t, s, "left the draft")
}

// On a page that opens an alert every 50 ms, a dialog can swallow a click.
// Every click either reaches the page exactly once (sent again when the
// first did not arrive) or says it did not; none is reported done while
// lost, and none counts twice.
func TestClickUnderDialogStorm(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Storm</title>
<button onclick="window.clicks = (window.clicks || 0) + 1">Count</button>
<script>window.storm = setInterval(() => alert('tick'), 50)</script>`))
	// Leaving a page in mid-storm can hold the next goto past its bound (a
	// known problem, issue 14): the storm is stopped before the next test.
	t.Cleanup(func() { evalPage[bool](t, shared, "clearInterval(window.storm), true") })
	ref := refOf(t, s, `button "Count"`)
	ctx := tctx(t)
	for i := range 20 {
		before := evalPage[int](t, shared, "window.clicks || 0")
		out, err := shared.Do(ctx, contract.Action{Name: contract.ActClick, Ref: ref})
		after := evalPage[int](t, shared, "window.clicks || 0")
		switch {
		case err != nil && !strings.Contains(err.Error(), "did not reach the page"):
			t.Fatalf("click %d: %v", i, err)
		case err != nil && after != before:
			t.Errorf("click %d reported lost, but the page counted %d", i, after-before)
		case err == nil && after != before+1:
			t.Errorf("click %d reported done (%+v), but the page counted %d", i, out, after-before)
		}
	}
}
