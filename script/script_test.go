package script_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/script"
)

// page is a Caller over a list of pages of items, as a shop's result pages
// are: next moves on, snapshot shows the page. The engine's own tests need
// no browser; the loop's tests (package agent) drive real Chromium.
type page struct {
	n     int
	calls []string
	fail  map[string]error
}

var tools = []script.Tool{
	{Name: "click", Params: []script.Param{{Name: "ref", Type: "string", Required: true}}},
	{Name: "type", Params: []script.Param{{Name: "ref", Type: "string", Required: true}, {Name: "text", Type: "string", Required: true}, {Name: "submit", Type: "boolean"}}},
	{Name: "wait_for", Params: []script.Param{{Name: "text", Type: "string"}, {Name: "ref", Type: "string"}, {Name: "timeout_ms", Type: "integer"}}},
	{Name: "page_tool", Params: []script.Param{{Name: "name", Type: "string", Required: true}, {Name: "arguments", Type: "object"}}},
	{Name: "scroll", Params: []script.Param{{Name: "direction", Type: "string"}, {Name: "ref", Type: "string"}}},
}

func (p *page) Call(_ context.Context, tool string, args json.RawMessage) (string, error) {
	p.calls = append(p.calls, tool+" "+string(args))
	if err := p.fail[tool]; err != nil {
		return "", err
	}
	if tool == "click" && strings.Contains(string(args), `"e9"`) {
		p.n++
	}
	return "done", nil
}

func (p *page) Snapshot(context.Context) (script.Page, error) {
	txt := `heading "Mugs" [level=1]
link "Blue mug $` + string(rune('0'+p.n)) + `" [ref=e1]
textbox "Search" value="mug" focused [ref=e2]
checkbox "In stock" checked box=10,20,30,40 [ref=e3]`
	if p.n < 3 {
		txt += "\nlink \"Next\" [ref=e9]"
	}
	return script.Page{URL: "http://shop.test/?p=" + string(rune('1'+p.n)), Title: "Mugs", Text: txt}, nil
}

func run(t *testing.T, code string, c script.Caller, lim script.Limits) (*script.Result, *script.Error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := script.Run(ctx, code, tools, c, lim)
	if err != nil {
		var se *script.Error
		if !errors.As(err, &se) {
			t.Fatalf("error %v (%T) is not a *script.Error", err, err)
		}
		return nil, se
	}
	return res, nil
}

func TestLoopOverPages(t *testing.T) {
	p := &page{}
	res, err := run(t, `
var names = [];
for (;;) {
  var s = snapshot();
  names.push(s.find({role: "link", name: "mug"}).name);
  var next = s.find({role: "link", name: "Next"});
  if (!next) break;
  click(next.ref);
}
log("pages", names.length);
return names;`, p, script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Value); got != `["Blue mug $0","Blue mug $1","Blue mug $2","Blue mug $3"]` {
		t.Errorf("value %s", got)
	}
	if res.Calls != 7 || len(res.Logs) != 1 || res.Logs[0] != "pages 4" {
		t.Errorf("calls %d logs %q", res.Calls, res.Logs)
	}
}

func TestArgumentsByPositionAndName(t *testing.T) {
	p := &page{}
	_, err := run(t, `type("e2", "blue", {submit: true}); waitFor({text: "Saved"}); waitFor("Done");
pageTool("search", {q: "mug"}); scroll("down"); call("click", {ref: "e3"}); await click("e1");`, p, script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`type {"ref":"e2","submit":true,"text":"blue"}`, `wait_for {"text":"Saved"}`, `wait_for {"text":"Done"}`,
		`page_tool {"arguments":{"q":"mug"},"name":"search"}`, `scroll {"direction":"down"}`, `click {"ref":"e3"}`, `click {"ref":"e1"}`}
	if strings.Join(p.calls, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(p.calls, "\n"), strings.Join(want, "\n"))
	}
}

func TestNodes(t *testing.T) {
	p := &page{}
	res, err := run(t, `var s = snapshot(); var b = s.find({role: "checkbox"}); var t = s.find({role: "textbox"});
return [b.states, b.box, t.value, t.states, s.findAll({role: "link"}).length, s.nodes[0].role, s.nodes[0].depth];`, p, script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Value); got != `[["checked"],{"height":40,"width":30,"x":10,"y":20},"mug",["focused"],2,"heading",0]` {
		t.Errorf("value %s", got)
	}
}

func TestFailedCallIsCatchable(t *testing.T) {
	p := &page{fail: map[string]error{"click": &script.CallError{Code: "REFUSED", Msg: "the person said no"}}}
	res, err := run(t, `try { click("e1") } catch (e) { return [e.code, e.message] }`, p, script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Value); got != `["REFUSED","click: the person said no"]` {
		t.Errorf("value %s", got)
	}
	_, err = run(t, "\n\nclick('e1')", p, script.Limits{})
	if err == nil || err.Code != script.CodeThrown || err.Line != 3 || !strings.Contains(err.Message, "REFUSED") {
		t.Errorf("uncaught: %+v", err)
	}
}

func TestCallerErrorEndsRun(t *testing.T) {
	broken := errors.New("the browser went away")
	p := &page{fail: map[string]error{"click": broken}}
	_, err := run(t, `try { click("e1") } catch (e) { return "caught" }`, p, script.Limits{})
	if err == nil || !errors.Is(err, broken) {
		t.Fatalf("err %v: want the Caller's error, not caught", err)
	}
}

func TestBounds(t *testing.T) {
	cases := []struct {
		name, code, code2 string
		lim               script.Limits
	}{
		{"syntax", "var x = ;", script.CodeSyntax, script.Limits{}},
		{"calls", "for (;;) click('e1')", script.CodeCalls, script.Limits{MaxCalls: 5}},
		{"result", "return 'x'.repeat(100)", script.CodeOutput, script.Limits{MaxResultBytes: 50}},
		{"recursion", "function f(){ return f() } f()", script.CodeThrown, script.Limits{}},
		{"repeat", "return 'x'.repeat(1e9).length", script.CodeThrown, script.Limits{}},
		{"memory", "var a = []; for (;;) a.push('x'.repeat(100000) + a.length)", script.CodeMemory, script.Limits{MaxMemory: 64 << 20}},
		{"pending", "await new Promise(function(){})", script.CodeThrown, script.Limits{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := run(t, c.code, &page{}, c.lim)
			if err == nil || err.Code != c.code2 {
				t.Fatalf("err %+v, want code %s", err, c.code2)
			}
		})
	}
}

func TestEndlessLoopEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	_, err := script.Run(ctx, "var i = 0;\nwhile (true) { i++ }", tools, &page{}, script.Limits{})
	var se *script.Error
	if !errors.As(err, &se) || se.Code != script.CodeTimeout || se.Line != 2 || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
	if d := time.Since(t0); d > 2*time.Second {
		t.Errorf("took %s", d)
	}
}

func TestNoHostAccess(t *testing.T) {
	res, err := run(t, `return [typeof require, typeof setTimeout, typeof fetch, typeof XMLHttpRequest, typeof Uint8Array, typeof process]`, &page{}, script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Value); got != `["undefined","undefined","undefined","undefined","undefined","undefined"]` {
		t.Errorf("value %s", got)
	}
}

func BenchmarkCall(b *testing.B) {
	p := &page{}
	code := `for (var i = 0; i < 100; i++) click("e1")`
	for b.Loop() {
		p.calls = p.calls[:0]
		if _, err := script.Run(context.Background(), code, tools, p, script.Limits{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*100), "ns/call")
}
