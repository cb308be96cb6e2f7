package suite

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// fakePage answers Eval from a table of expressions.
type fakePage struct {
	url   string
	evals map[string]any // substring of the script -> value
	err   error
}

func (p *fakePage) URL() string { return p.url }

func (p *fakePage) Eval(_ context.Context, js string) (any, error) {
	if p.err != nil {
		return nil, p.err
	}
	for k, v := range p.evals {
		if strings.Contains(js, k) {
			return v, nil
		}
	}
	return nil, nil
}

// checksOf parses one task whose checks are the given YAML lines.
func checksOf(t *testing.T, checks string) *Task {
	t.Helper()
	tasks, err := Parse("c.yaml", []byte("tasks:\n  - id: c\n    site: shop\n    instruction: x\n    checks:\n"+checks))
	if err != nil {
		t.Fatal(err)
	}
	return tasks[0]
}

var checkState = map[string]any{
	"orders": []map[string]any{{
		"number": "SO-1001", "total_cents": 4949, "gift_wrap": true,
		"items": []map[string]any{{"slug": "blue-mug", "name": "Blue mug", "quantity": 2}, {"slug": "red-mug", "name": "Red mug", "quantity": 1}},
	}},
	"cart":    []any{},
	"results": map[string]any{"slider": "40"},
	"to":      []string{"a@x.org", "b@x.org"},
	"note":    "Call the plumber",
}

func TestChecks(t *testing.T) {
	t.Parallel()
	page := &fakePage{url: "http://127.0.0.1:5/orders/SO-1001?x=1#top", evals: map[string]any{
		"document.title":          true,
		"window.nothing":          nil,
		"zero":                    0.0,
		"querySelector(\"#tot":    "  Order total:\n $49.49 ",
		"querySelector(\"#none\"": nil,
	}}
	in := CheckInput{Answer: "Your order SO-1001 is placed; the total is $1,049.49.", Page: page, State: checkState}
	for _, tc := range []struct {
		check string
		pass  bool
		msg   string
	}{
		{`answer_equals: "your order so-1001 is placed; the total is $1,049.49"`, true, "the answer is"},
		{`answer_equals: "SO-1001"`, false, `is not "SO-1001"`},
		{`answer_contains: "order so-1001"`, true, "contains"},
		{`answer_contains: "SO-1002"`, false, `does not contain "SO-1002"`},
		{`answer_regex: 'SO-[0-9]{4}'`, true, "matches"},
		{`answer_regex: '^SO'`, false, "does not match /^SO/"},
		{`answer_number: 1049.49`, true, "has the number 1049.49"},
		{`answer_number: 1001`, true, "has the number 1001"},
		{"answer_number: 1049\n        tolerance: 0.5", true, "1049.49"},
		{`answer_number: 49.49`, false, "has no number within 49.49 (it has 1001, 1049.49)"},
		{`url_equals: "/orders/SO-1001?x=1#top"`, true, "the URL is"},
		{`url_equals: "http://127.0.0.1:5/orders/SO-1001?x=1#top"`, true, "the URL is"},
		{`url_equals: "/orders/SO-1001"`, false, "not /orders/SO-1001"},
		{`url_contains: /orders/`, true, "contains"},
		{`url_contains: /cart`, false, `does not contain "/cart"`},
		{`url_regex: 'SO-[0-9]+\?'`, true, "matches"},
		{`url_regex: '/cart$'`, false, "does not match"},
		{`page_js: "document.title !== ''"`, true, "the expression is true"},
		{`page_js: "window.nothing"`, false, "the expression is false (it gave null)"},
		{`page_js: "zero"`, false, "it gave 0"},
		{`element_text: {selector: "#total", contains: "$49.49"}`, true, `the text of #total is "Order total: $49.49"`},
		{`element_text: {selector: "#total", equals: "Order total: $49.49"}`, true, "the text of"},
		{`element_text: {selector: "#total", regex: '^Order total: \$[0-9.]+$'}`, true, "the text of"},
		{`element_text: {selector: "#total", equals: "$49.49"}`, false, `which does not equal "$49.49"`},
		{`element_text: {selector: "#none", contains: "x"}`, false, "no element matches #none"},
		{`state: {path: orders, count: 1}`, true, "orders has 1 items"},
		{`state: {path: cart, count: 1}`, false, "cart has 0 items, want 1"},
		{`state: {path: "orders.0.items[slug=red-mug].quantity", equals: 1}`, true, "is 1"},
		{`state: {path: "orders.0.items.-1.name", equals: Red mug}`, true, "is \"Red mug\""},
		{`state: {path: orders.0.total_cents, equals: 4949}`, true, "is 4949"},
		{`state: {path: orders.0.total_cents, equals: "4949"}`, true, "is 4949"},
		{`state: {path: orders.0.total_cents, equals: 4948}`, false, "orders.0.total_cents is 4949, want 4948"},
		{`state: {path: orders.0.gift_wrap, equals: true}`, true, "is true"},
		{`state: {path: results.slider, equals: 40}`, true, `is "40"`},
		{`state: {path: to, equals: [a@x.org, b@x.org]}`, true, "is"},
		{`state: {path: to, equals: [b@x.org, a@x.org]}`, false, "want"},
		{`state: {path: to, contains: b@x.org}`, true, "has the item"},
		{`state: {path: to, contains: c@x.org}`, false, "does not contain"},
		{`state: {path: note, contains: plumber}`, true, "contains"},
		{`state: {path: results, contains: slider}`, true, "has the key"},
		{`state: {path: note, regex: '^Call'}`, true, "matches"},
		{`state: {path: note, regex: '^call'}`, false, "does not match"},
		{`state: {path: orders.0.promo, exists: false}`, true, "does not exist"},
		{`state: {path: orders.0.number, exists: true}`, true, "exists"},
		{`state: {path: orders.0.number, exists: false}`, false, "exists (\"SO-1001\") but should not"},
		{`state: {path: orders.1.number, equals: x}`, false, "orders.1.number does not exist: orders has 1 items, so no item 1"},
		{`state: {path: "orders.0.items[slug=green-mug].quantity", equals: 1}`, false, `no item of orders.0.items (2 items) has slug = "green-mug"`},
		{`state: {path: orders.0.itemz, count: 1}`, false, `orders.0 has no key "itemz" (its keys: gift_wrap, items, number, total_cents)`},
		{`state: {path: note.x, equals: 1}`, false, `note is "Call the plumber", not a map`},
	} {
		t.Run(tc.check, func(t *testing.T) {
			task := checksOf(t, "      - "+tc.check+"\n")
			res := task.Check(context.Background(), in)
			if len(res) != 1 {
				t.Fatalf("%d results", len(res))
			}
			r := res[0]
			if r.Pass != tc.pass || !strings.Contains(r.Message, tc.msg) {
				t.Fatalf("pass=%v message %q; want pass=%v and %q", r.Pass, r.Message, tc.pass, tc.msg)
			}
			if r.Line != 6 || r.Check == "" || r.Kind == "" {
				t.Errorf("result = %+v", r)
			}
		})
	}
}

func TestChecksWithoutPageOrState(t *testing.T) {
	t.Parallel()
	task := checksOf(t, "      - url_contains: x\n      - page_js: 'true'\n      - element_text: {selector: a, contains: b}\n      - state: {path: a, count: 0}\n")
	res := task.Check(context.Background(), CheckInput{})
	for i, want := range []string{"no page to take the URL from", "no page to run the expression on", "no page to find the element on", "no site state"} {
		if res[i].Pass || !strings.Contains(res[i].Message, want) {
			t.Errorf("check %d: %+v, want a failure saying %q", i, res[i], want)
		}
	}
	if Passed(res) || Passed(nil) {
		t.Error("Passed is true")
	}
	bad := &fakePage{err: errors.New("tab crashed")}
	res = checksOf(t, "      - page_js: 'true'\n").Check(context.Background(), CheckInput{Page: bad})
	if res[0].Pass || !strings.Contains(res[0].Message, "the expression failed: tab crashed") {
		t.Errorf("eval error: %+v", res[0])
	}
	res = checksOf(t, "      - answer_contains: ok\n").Check(context.Background(), CheckInput{Answer: "OK."})
	if !Passed(res) {
		t.Errorf("Passed(%+v) is false", res)
	}
}

func TestCheckString(t *testing.T) {
	t.Parallel()
	task := checksOf(t, "      - answer_number: 3\n        tolerance: 0.5\n      - state: {path: a.b, equals: [1, x]}\n      - element_text: {selector: h1, equals: Hi}\n      - url_contains: /x\n")
	want := []string{`answer_number 3 ± 0.5`, `state a.b equals [1,"x"]`, `element_text h1 equals "Hi"`, `url_contains "/x"`}
	for i, c := range task.Checks {
		if c.String() != want[i] {
			t.Errorf("check %d: %q, want %q", i, c.String(), want[i])
		}
	}
}

func TestParsePath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, want string
	}{
		{"orders", "orders"},
		{"orders.0.items.1.name", "orders.0.items.1.name"},
		{"orders.-1.total", "orders.-1.total"},
		{"users[name=Priya Patel].role", "users[name=Priya Patel].role"},
		{"orders.0.items[2]", "orders.0.items.2"},
		{"a[x=1][y=2].b", "a[x=1][y=2].b"},
		{"users[email=a.b@c.org]", "users[email=a.b@c.org]"},
	} {
		segs, err := parsePath(tc.in)
		if err != nil {
			t.Errorf("parsePath(%q): %v", tc.in, err)
			continue
		}
		if got := pathString(segs); got != tc.want {
			t.Errorf("parsePath(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
	for _, bad := range []string{"", "a..b", ".a", "a.", "a[x", "a]", "[x=1]", "a[=1]", "a[x]", "a[1]b"} {
		if _, err := parsePath(bad); err == nil {
			t.Errorf("parsePath(%q) succeeded", bad)
		}
	}
}
