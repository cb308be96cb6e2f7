package suite

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/internal/outline"
)

// TestPolicyOnScreen: for a model that answers in coordinates (the
// observations list where refs are on the screen) a turn is sent up to
// the first step whose element is off the screen, the rest taken up once
// it shows; when the first is off the screen, a scroll toward it comes
// first; and a scroll that never brings it gives up with a fail.
func TestPolicyOnScreen(t *testing.T) {
	t.Parallel()
	page := `textbox "Name" [ref=e1]
button "Save" [ref=e2]
paragraph "A long text"
button "Far" [ref=e3]`
	view := func(spots ...outline.Spot) string { return page + "\n\n" + outline.InViewLine(800, 600, spots) }
	top := view(outline.Spot{Ref: "e1", X: 10, Y: 10}, outline.Spot{Ref: "e2", X: 10, Y: 40})
	bottom := view(outline.Spot{Ref: "e3", X: 10, Y: 500})
	task := taskWith(t, "type \"Name\" \"Ann\"; click \"Save\"; click \"Far\"\ndone \"ok\"")
	c := newConvo(t, ReferencePolicy(task, "http://127.0.0.1:9"))

	turn := c.observe(top)
	if got := calls(turn); got != `type{"ref":"e1","text":"Ann"} click{"ref":"e2"}` || !strings.HasPrefix(turn.Text, "Reference turn 1 of 2, to step 2") {
		t.Fatalf("first part: %s %q", got, turn.Text)
	}
	// Still at the top: scroll down toward Far.
	if got := calls(c.observe(top)); got != `scroll{"direction":"down"}` {
		t.Fatalf("off the screen: %s", got)
	}
	if got := calls(c.observe(bottom)); got != `click{"ref":"e3"}` {
		t.Fatalf("once on the screen: %s", got)
	}
	if got := calls(c.observe(bottom)); got != `done{"answer":"ok"}` {
		t.Fatalf("after the turn: %s", got)
	}

	// Above the view: scroll up; never there: a fail after maxScrolls.
	task = taskWith(t, "click \"Name\"\ndone \"ok\"")
	c = newConvo(t, ReferencePolicy(task, "http://127.0.0.1:9"))
	for i := range maxScrolls {
		if got := calls(c.observe(bottom)); got != `scroll{"direction":"up"}` {
			t.Fatalf("scroll %d: %s", i+1, got)
		}
	}
	if turn := c.observe(bottom); len(turn.ToolCalls) != 1 || turn.ToolCalls[0].Name != "fail" || !strings.Contains(turn.ToolCalls[0].Args, "did not come onto the screen") {
		t.Fatalf("never on the screen: %+v", turn)
	}
}
