package suite

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"strings"
)

// The kinds of check.
const (
	KindAnswerEquals   = "answer_equals"
	KindAnswerContains = "answer_contains"
	KindAnswerRegex    = "answer_regex"
	KindAnswerNumber   = "answer_number"
	KindURLEquals      = "url_equals"
	KindURLContains    = "url_contains"
	KindURLRegex       = "url_regex"
	KindPageJS         = "page_js"
	KindElementText    = "element_text"
	KindState          = "state"
)

// The operators of element_text and state checks.
const (
	OpEquals   = "equals"
	OpContains = "contains"
	OpRegex    = "regex"
	OpCount    = "count"
	OpExists   = "exists"
)

// Check is one condition a task's outcome must meet. Kind says which of the
// other fields are used.
type Check struct {
	Kind string
	// Line is the check's line in its task file.
	Line int
	// Text is the expected text of answer_equals, answer_contains,
	// url_equals and url_contains, the pattern of answer_regex and
	// url_regex, and the expression of page_js.
	Text string
	// Number and Tolerance are answer_number's.
	Number, Tolerance float64
	// Selector is element_text's CSS selector; Path is state's dotted path.
	Selector string
	Path     string
	// Op and Want are the operator and operand of element_text (equals,
	// contains, regex) and state (equals, contains, regex, count, exists).
	Op   string
	Want any

	re   *regexp.Regexp
	segs []pathSeg
}

// String describes the check in a line, e.g. `state orders.0.total_cents
// equals 4368`.
func (c Check) String() string {
	switch c.Kind {
	case KindAnswerNumber:
		if c.Tolerance > 0 {
			return fmt.Sprintf("%s %s ± %s", c.Kind, fmtNum(c.Number), fmtNum(c.Tolerance))
		}
		return fmt.Sprintf("%s %s", c.Kind, fmtNum(c.Number))
	case KindElementText:
		return fmt.Sprintf("%s %s %s %s", c.Kind, c.Selector, c.Op, quoteAny(c.Want))
	case KindState:
		return fmt.Sprintf("%s %s %s %s", c.Kind, c.Path, c.Op, quoteAny(c.Want))
	default:
		return fmt.Sprintf("%s %q", c.Kind, c.Text)
	}
}

// Page is the browser page a task ended on, as checks need it. The harness
// adapts its browser to it.
type Page interface {
	// URL is the page's current URL.
	URL() string
	// Eval evaluates a JavaScript expression in the page and returns its
	// value decoded from JSON (nil, bool, float64, string, []any,
	// map[string]any).
	Eval(ctx context.Context, js string) (any, error)
}

// CheckInput is what a task's checks look at once the agent has finished.
type CheckInput struct {
	// Answer is the agent's answer (agent.Result.Answer).
	Answer string
	// Page is the page the agent ended on; nil when there is none, which
	// fails URL and page checks.
	Page Page
	// State is the site's server state (sites.Site.State()); nil for a task
	// without a site, which fails state checks.
	State map[string]any
}

// CheckResult is the outcome of one check.
type CheckResult struct {
	// Check describes the check (Check.String()).
	Check string `json:"check"`
	Kind  string `json:"kind"`
	Line  int    `json:"line"`
	Pass  bool   `json:"pass"`
	// Message says what was found: why the check failed, or what passed.
	Message string `json:"message"`
}

// Check runs every check of the task on in and returns one result per check,
// in order. The task passed when every result passed (see Passed).
func (t *Task) Check(ctx context.Context, in CheckInput) []CheckResult {
	var state any
	if in.State != nil {
		state = normalize(in.State)
	}
	out := make([]CheckResult, len(t.Checks))
	for i, c := range t.Checks {
		pass, msg := c.run(ctx, in, state)
		out[i] = CheckResult{Check: c.String(), Kind: c.Kind, Line: c.Line, Pass: pass, Message: msg}
	}
	return out
}

// Passed reports whether every result passed (and there is at least one).
func Passed(results []CheckResult) bool {
	for _, r := range results {
		if !r.Pass {
			return false
		}
	}
	return len(results) > 0
}

func (c Check) run(ctx context.Context, in CheckInput, state any) (bool, string) {
	switch c.Kind {
	case KindAnswerEquals:
		if normText(in.Answer) == normText(c.Text) {
			return true, fmt.Sprintf("the answer is %q", in.Answer)
		}
		return false, fmt.Sprintf("the answer %q is not %q (compared ignoring case, extra spaces and a final full stop)", in.Answer, c.Text)
	case KindAnswerContains:
		if strings.Contains(strings.ToLower(collapse(in.Answer)), strings.ToLower(collapse(c.Text))) {
			return true, fmt.Sprintf("the answer %q contains %q", in.Answer, c.Text)
		}
		return false, fmt.Sprintf("the answer %q does not contain %q (ignoring case)", in.Answer, c.Text)
	case KindAnswerRegex:
		if c.re.MatchString(in.Answer) {
			return true, fmt.Sprintf("the answer %q matches /%s/", in.Answer, c.Text)
		}
		return false, fmt.Sprintf("the answer %q does not match /%s/", in.Answer, c.Text)
	case KindAnswerNumber:
		nums := numbersIn(in.Answer)
		for _, n := range nums {
			if math.Abs(n-c.Number) <= c.Tolerance+1e-9 {
				return true, fmt.Sprintf("the answer %q has the number %s", in.Answer, fmtNum(n))
			}
		}
		want := fmtNum(c.Number)
		if c.Tolerance > 0 {
			want += " ± " + fmtNum(c.Tolerance)
		}
		if len(nums) == 0 {
			return false, fmt.Sprintf("the answer %q has no number; want %s", in.Answer, want)
		}
		return false, fmt.Sprintf("the answer %q has no number within %s (it has %s)", in.Answer, want, joinNums(nums))
	case KindURLEquals, KindURLContains, KindURLRegex:
		return c.checkURL(in.Page)
	case KindPageJS:
		if in.Page == nil {
			return false, "there is no page to run the expression on"
		}
		v, err := in.Page.Eval(ctx, "!!("+c.Text+"\n)")
		if err != nil {
			return false, fmt.Sprintf("the expression failed: %v", err)
		}
		if truthy(v) {
			return true, "the expression is true"
		}
		return false, fmt.Sprintf("the expression is false (it gave %s)", quoteAny(v))
	case KindElementText:
		return c.checkElement(ctx, in.Page)
	case KindState:
		if state == nil {
			return false, "the task has no site state to check"
		}
		return c.checkState(state)
	}
	return false, fmt.Sprintf("unknown check kind %q", c.Kind)
}

func (c Check) checkURL(p Page) (bool, string) {
	if p == nil {
		return false, "there is no page to take the URL from"
	}
	u := p.URL()
	// A relative expectation ("/orders/SO-1001") is compared with the URL's
	// path, query and fragment.
	got := u
	if c.Kind == KindURLEquals && strings.HasPrefix(c.Text, "/") {
		if pu, err := url.Parse(u); err == nil {
			pu.Scheme, pu.User, pu.Host = "", nil, ""
			got = pu.String()
		}
	}
	switch c.Kind {
	case KindURLEquals:
		if got == c.Text {
			return true, fmt.Sprintf("the URL is %s", u)
		}
		return false, fmt.Sprintf("the URL is %s, not %s", u, c.Text)
	case KindURLContains:
		if strings.Contains(u, c.Text) {
			return true, fmt.Sprintf("the URL %s contains %q", u, c.Text)
		}
		return false, fmt.Sprintf("the URL %s does not contain %q", u, c.Text)
	default:
		if c.re.MatchString(u) {
			return true, fmt.Sprintf("the URL %s matches /%s/", u, c.Text)
		}
		return false, fmt.Sprintf("the URL %s does not match /%s/", u, c.Text)
	}
}

func (c Check) checkElement(ctx context.Context, p Page) (bool, string) {
	if p == nil {
		return false, "there is no page to find the element on"
	}
	sel, _ := json.Marshal(c.Selector)
	js := `(() => { const e = document.querySelector(` + string(sel) + `); if (e === null) return null;
  if (e instanceof HTMLInputElement || e instanceof HTMLTextAreaElement || e instanceof HTMLSelectElement) return e.value;
  return e.innerText === undefined ? e.textContent : e.innerText; })()`
	v, err := p.Eval(ctx, js)
	if err != nil {
		return false, fmt.Sprintf("reading %s failed: %v", c.Selector, err)
	}
	if v == nil {
		return false, fmt.Sprintf("no element matches %s", c.Selector)
	}
	text := collapse(fmt.Sprint(v))
	want := fmt.Sprint(c.Want)
	var ok bool
	switch c.Op {
	case OpEquals:
		ok = text == collapse(want)
	case OpContains:
		ok = strings.Contains(text, collapse(want))
	case OpRegex:
		ok = c.re.MatchString(text)
	}
	if ok {
		return true, fmt.Sprintf("the text of %s is %q", c.Selector, text)
	}
	return false, fmt.Sprintf("the text of %s is %q, which does not %s %s", c.Selector, text, opVerb(c.Op), quoteAny(c.Want))
}

func opVerb(op string) string {
	switch op {
	case OpEquals:
		return "equal"
	case OpContains:
		return "contain"
	case OpRegex:
		return "match"
	}
	return op
}

func (c Check) checkState(state any) (bool, string) {
	v, found, where := lookup(state, c.segs)
	if c.Op == OpExists {
		want, _ := c.Want.(bool)
		switch {
		case found == want && found:
			return true, fmt.Sprintf("%s exists (%s)", c.Path, quoteAny(v))
		case found == want:
			return true, fmt.Sprintf("%s does not exist (%s)", c.Path, where)
		case found:
			return false, fmt.Sprintf("%s exists (%s) but should not", c.Path, quoteAny(v))
		default:
			return false, fmt.Sprintf("%s does not exist: %s", c.Path, where)
		}
	}
	if !found {
		return false, fmt.Sprintf("%s does not exist: %s", c.Path, where)
	}
	switch c.Op {
	case OpEquals:
		if equalValues(v, c.Want) {
			return true, fmt.Sprintf("%s is %s", c.Path, quoteAny(v))
		}
		return false, fmt.Sprintf("%s is %s, want %s", c.Path, quoteAny(v), quoteAny(c.Want))
	case OpCount:
		n, ok := length(v)
		if !ok {
			return false, fmt.Sprintf("%s is %s, which has no count", c.Path, quoteAny(v))
		}
		want := toFloat(c.Want)
		if float64(n) == want {
			return true, fmt.Sprintf("%s has %d items", c.Path, n)
		}
		return false, fmt.Sprintf("%s has %d items, want %s", c.Path, n, fmtNum(want))
	case OpContains:
		switch x := v.(type) {
		case string:
			if strings.Contains(x, scalarString(c.Want)) {
				return true, fmt.Sprintf("%s (%q) contains %s", c.Path, x, quoteAny(c.Want))
			}
		case []any:
			for _, e := range x {
				if equalValues(e, c.Want) {
					return true, fmt.Sprintf("%s has the item %s", c.Path, quoteAny(c.Want))
				}
			}
		case map[string]any:
			if _, ok := x[scalarString(c.Want)]; ok {
				return true, fmt.Sprintf("%s has the key %s", c.Path, quoteAny(c.Want))
			}
		}
		return false, fmt.Sprintf("%s is %s, which does not contain %s", c.Path, quoteAny(v), quoteAny(c.Want))
	case OpRegex:
		s := scalarString(v)
		if c.re.MatchString(s) {
			return true, fmt.Sprintf("%s (%q) matches /%s/", c.Path, s, c.Want)
		}
		return false, fmt.Sprintf("%s is %s, which does not match /%s/", c.Path, quoteAny(v), c.Want)
	}
	return false, fmt.Sprintf("unknown operator %q", c.Op)
}
