package suite

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/webagent/webagent/modelserver"
)

// taskWith parses a shop task with the given reference lines.
func taskWith(t *testing.T, ref string) *Task {
	t.Helper()
	src := "tasks:\n  - id: p\n    site: shop\n    instruction: x\n    checks: [{answer_contains: x}]\n    reference: |\n"
	for _, l := range strings.Split(ref, "\n") {
		src += "      " + l + "\n"
	}
	tasks, err := Parse("p.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return tasks[0]
}

// convo is a conversation as the agent builds it.
type convo struct {
	t    *testing.T
	p    modelserver.Responder
	msgs []modelserver.Message
	step int
}

func newConvo(t *testing.T, p modelserver.Responder) *convo {
	return &convo{t: t, p: p, msgs: []modelserver.Message{{Role: "system", Content: "You are a web agent."}, {Role: "user", Content: "Task: x"}}}
}

// observe sends an observation of the snapshot and returns the reply,
// which is appended with a tool result per call (results[i], or "ok").
func (c *convo) observe(snapshot string, results ...string) modelserver.Turn {
	c.t.Helper()
	c.step++
	c.msgs = append(c.msgs, modelserver.Message{Role: "user", Content: fmt.Sprintf("Observation, step %d of 30.\nURL: http://127.0.0.1:9/\nTitle: T\nSnapshot:\n%s", c.step, snapshot)})
	req := &modelserver.ChatRequest{Messages: append([]modelserver.Message(nil), c.msgs...)}
	turn := c.p.Respond(req)
	again := c.p.Respond(&modelserver.ChatRequest{Messages: append([]modelserver.Message(nil), c.msgs...)})
	if fmt.Sprint(again) != fmt.Sprint(turn) {
		c.t.Fatalf("the same request got two answers:\n%v\n%v", turn, again)
	}
	var calls []modelserver.MessageCall
	for i, tc := range turn.ToolCalls {
		calls = append(calls, modelserver.MessageCall{ID: fmt.Sprint("call_", c.step, i), Name: tc.Name, Arguments: tc.Args})
	}
	c.msgs = append(c.msgs, modelserver.Message{Role: "assistant", Content: turn.Text, ToolCalls: calls})
	for i, mc := range calls {
		res := "ok"
		if i < len(results) {
			res = results[i]
		}
		c.msgs = append(c.msgs, modelserver.Message{Role: "tool", ToolCallID: mc.ID, Content: res})
	}
	return turn
}

// calls renders a turn's calls as `name{json}` strings.
func calls(turn modelserver.Turn) string {
	var s []string
	for _, c := range turn.ToolCalls {
		var m map[string]any
		if err := json.Unmarshal([]byte(c.Args), &m); err != nil {
			return "bad args: " + c.Args
		}
		b, _ := json.Marshal(m) // sorted keys
		s = append(s, c.Name+string(b))
	}
	return strings.Join(s, " ")
}

func TestPolicyPlaysTheReference(t *testing.T) {
	t.Parallel()
	task := taskWith(t, `type "Search products" "mug" submit
click "Add to cart" in "Blue mug"
expect "Added Blue mug"
goto "/cart"
type "Quantity" "3" in the row of "Blue mug"; click "Update" in the row of "Blue mug"
done "Subtotal {{/Subtotal: ([$][0-9.]+)/}}"`)
	c := newConvo(t, ReferencePolicy(task, "http://127.0.0.1:9"))

	turn := c.observe(shopSnapshot)
	if got := calls(turn); got != `type{"ref":"e5","submit":true,"text":"mug"}` {
		t.Fatalf("turn 1: %s", got)
	}
	if !strings.HasPrefix(turn.Text, `Reference turn 1 of 6 (line 7): type "Search products" "mug" submit`) {
		t.Errorf("marker: %q", turn.Text)
	}
	if got := calls(c.observe(shopSnapshot)); got != `click{"ref":"e14"}` {
		t.Fatalf("turn 2: %s", got)
	}
	// The expect holds on this page, so the goto follows in the same reply.
	turn = c.observe(shopSnapshot)
	if got := calls(turn); got != `goto{"url":"http://127.0.0.1:9/cart"}` || !strings.HasPrefix(turn.Text, "Reference turn 4 of 6") {
		t.Fatalf("turn 4: %s %q", got, turn.Text)
	}
	if got := calls(c.observe(cartSnapshot)); got != `type{"ref":"e82","text":"3"} click{"ref":"e83"}` {
		t.Fatalf("turn 5: %s", got)
	}
	if got := calls(c.observe(cartSnapshot)); got != `done{"answer":"Subtotal $35.00"}` {
		t.Fatalf("turn 6: %s", got)
	}
}

func TestPolicyFailures(t *testing.T) {
	t.Parallel()
	ref := "click \"Add to cart\" in \"Blue mug\"\nexpect \"Thank you\"\ndone \"{{/BK-[0-9]+/}}\""
	fail := func(turn modelserver.Turn) string {
		t.Helper()
		if len(turn.ToolCalls) != 1 || turn.ToolCalls[0].Name != "fail" {
			t.Fatalf("want a fail call, got %+v", turn)
		}
		var a struct{ Reason string }
		_ = json.Unmarshal([]byte(turn.ToolCalls[0].Args), &a)
		return a.Reason
	}
	t.Run("name not on the page", func(t *testing.T) {
		c := newConvo(t, ReferencePolicy(taskWith(t, ref), ""))
		got := fail(c.observe(cartSnapshot))
		if !strings.Contains(got, `reference turn 1 of 3 (line 7: click "Add to cart" in "Blue mug"): no element "Add to cart" near the line containing "Blue mug"`) {
			t.Fatalf("reason: %s", got)
		}
	})
	t.Run("tool error", func(t *testing.T) {
		c := newConvo(t, ReferencePolicy(taskWith(t, ref), ""))
		c.observe(shopSnapshot, "error: ref e14 is not on this page; use a ref from the latest snapshot")
		got := fail(c.observe(shopSnapshot))
		if got != `reference turn 1 of 3 (line 7: click "Add to cart" in "Blue mug") failed: error: ref e14 is not on this page; use a ref from the latest snapshot` {
			t.Fatalf("reason: %s", got)
		}
	})
	t.Run("expect", func(t *testing.T) {
		c := newConvo(t, ReferencePolicy(taskWith(t, ref), ""))
		c.observe(shopSnapshot)
		got := fail(c.observe(shopSnapshot))
		if !strings.Contains(got, `reference turn 2 of 3 (line 8: expect "Thank you"): expected "Thank you" on the page, but it is not there`) {
			t.Fatalf("reason: %s", got)
		}
	})
	t.Run("expect no", func(t *testing.T) {
		c := newConvo(t, ReferencePolicy(taskWith(t, "expect no \"Subtotal\"\ndone \"x\""), ""))
		if got := fail(c.observe(cartSnapshot)); !strings.Contains(got, `expected no "Subtotal" on the page, but it is there`) {
			t.Fatalf("reason: %s", got)
		}
	})
	t.Run("template", func(t *testing.T) {
		c := newConvo(t, ReferencePolicy(taskWith(t, ref), ""))
		c.observe(shopSnapshot)
		got := fail(c.observe(shopSnapshot + "\nThank you"))
		if !strings.Contains(got, "reference turn 3 of 3") || !strings.Contains(got, "nothing on the page matches /BK-[0-9]+/") {
			t.Fatalf("reason: %s", got)
		}
	})
	t.Run("tool not offered", func(t *testing.T) {
		p := ReferencePolicy(taskWith(t, ref), "")
		req := &modelserver.ChatRequest{
			Messages: []modelserver.Message{{Role: "user", Content: "Observation, step 1 of 3.\nSnapshot:\n" + shopSnapshot}},
			Tools:    []modelserver.Tool{{Name: "goto"}, {Name: "done"}},
		}
		if got := fail(p.Respond(req)); !strings.Contains(got, "the agent offers no click tool (it offers goto, done)") {
			t.Fatalf("reason: %s", got)
		}
	})
	t.Run("no observation", func(t *testing.T) {
		p := ReferencePolicy(taskWith(t, ref), "")
		if got := fail(p.Respond(&modelserver.ChatRequest{Messages: []modelserver.Message{{Role: "user", Content: "Task: x"}}})); !strings.Contains(got, "no page observation") {
			t.Fatalf("reason: %s", got)
		}
	})
	t.Run("no reference", func(t *testing.T) {
		p := ReferencePolicy(&Task{ID: "bare"}, "")
		if got := fail(p.Respond(&modelserver.ChatRequest{})); got != "task bare has no reference solution" {
			t.Fatalf("reason: %s", got)
		}
	})
	t.Run("ended without done", func(t *testing.T) {
		task := &Task{ID: "open", Reference: &Reference{Turns: []Turn{{Line: 3, Source: "back", Steps: []Step{{Verb: "back"}}}}}}
		c := newConvo(t, ReferencePolicy(task, ""))
		if got := calls(c.observe("x")); got != "back{}" {
			t.Fatalf("turn 1: %s", got)
		}
		if got := fail(c.observe("x")); !strings.Contains(got, "ended without done") {
			t.Fatalf("reason: %s", got)
		}
	})
}

func TestPolicyUntil(t *testing.T) {
	t.Parallel()
	task := taskWith(t, "scroll down until \"Lighthouse in fog\"\nclick \"Like\" in \"Lighthouse in fog\"\ndone \"liked\"")
	feed := func(n int) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			title := fmt.Sprintf("Post %d", i)
			if i == 27 {
				title = "Post 27: Lighthouse in fog"
			}
			fmt.Fprintf(&b, "heading %q [level=2]\nbutton \"Like\" [ref=e%d]\n", title, i)
		}
		return b.String()
	}
	c := newConvo(t, ReferencePolicy(task, ""))
	for i, n := range []int{10, 20} {
		turn := c.observe(feed(n))
		if got := calls(turn); got != `scroll{"direction":"down"}` || !strings.HasPrefix(turn.Text, "Reference turn 1 of 3") {
			t.Fatalf("scroll %d: %s %q", i, got, turn.Text)
		}
	}
	if got := calls(c.observe(feed(30))); got != `click{"ref":"e27"}` {
		t.Fatalf("after scrolling: %s", got)
	}

	// Already on the page: no scrolling at all.
	c = newConvo(t, ReferencePolicy(task, ""))
	if got := calls(c.observe(feed(30))); got != `click{"ref":"e27"}` {
		t.Fatalf("without scrolling: %s", got)
	}

	// Never there: the policy gives up after MaxRepeats scrolls.
	c = newConvo(t, ReferencePolicy(task, ""))
	for i := 0; i < MaxRepeats; i++ {
		if got := calls(c.observe(feed(5))); got != `scroll{"direction":"down"}` {
			t.Fatalf("scroll %d: %s", i, got)
		}
	}
	turn := c.observe(feed(5))
	if len(turn.ToolCalls) != 1 || turn.ToolCalls[0].Name != "fail" || !strings.Contains(turn.ToolCalls[0].Args, `\"Lighthouse in fog\" did not appear after 25 tries`) {
		t.Fatalf("after %d scrolls: %+v", MaxRepeats, turn)
	}
}
