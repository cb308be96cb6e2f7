package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/tier"
)

// shop is a site of 60 products over 6 result pages (10 a page, a Next
// link on each but the last), a 12-field form that posts to /form, and a
// product page whose "Place order" button posts /order.
type shop struct {
	URL    string
	mu     sync.Mutex
	form   url.Values // the last form posted
	forms  int
	orders atomic.Int32
	hits   atomic.Int32
}

var colours = []string{"Blue", "Red", "Green", "Black", "White"}

// product k (0-59): its name and price in cents.
func product(k int) (string, int) {
	return fmt.Sprintf("%s mug no. %d", colours[k%len(colours)], k+1), 900 + (k*737)%2400
}

// wantMugs is the answer: every blue mug under $20, with its price.
func wantMugs() []string {
	var out []string
	for k := range 60 {
		name, cents := product(k)
		if strings.HasPrefix(name, "Blue") && cents < 2000 {
			out = append(out, fmt.Sprintf("%s $%d.%02d", name, cents/100, cents%100))
		}
	}
	return out
}

var formFields = []string{"First name", "Last name", "Email", "Phone", "Street", "City", "Postcode", "Company", "Job title", "Website", "Note"}

// formValues are what the tasks fill in: eleven text fields and a country.
func formValues() map[string]string {
	m := map[string]string{"Country": "Norway"}
	for i, f := range formFields {
		m[f] = fmt.Sprintf("value %d of %s", i+1, strings.ToLower(f))
	}
	m["Email"] = "ada@example.org"
	return m
}

func newShop(t testing.TB) *shop {
	t.Helper()
	s := &shop{}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

func (s *shop) serve(w http.ResponseWriter, r *http.Request) {
	s.hits.Add(1)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	switch {
	case r.URL.Path == "/form" && r.Method == http.MethodPost:
		_ = r.ParseForm()
		s.mu.Lock()
		s.form, s.forms = r.PostForm, s.forms+1
		s.mu.Unlock()
		fmt.Fprint(w, `<title>Sent</title><h1>Thank you, the form was sent</h1>`)
	case r.URL.Path == "/form":
		var b strings.Builder
		b.WriteString(`<title>Contact</title><h1>Contact details</h1><form method="post" action="/form">`)
		for i, f := range formFields {
			tag := fmt.Sprintf(`<input name="f%d" id="f%d">`, i, i)
			if f == "Note" {
				tag = fmt.Sprintf(`<textarea name="f%d" id="f%d"></textarea>`, i, i)
			}
			fmt.Fprintf(&b, `<p><label for="f%d">%s</label> %s</p>`, i, f, tag)
		}
		b.WriteString(`<p><label for="c">Country</label> <select name="country" id="c"><option>Choose</option><option>Denmark</option><option>Norway</option><option>Sweden</option></select></p>`)
		b.WriteString(`<button>Send</button></form>`)
		fmt.Fprint(w, b.String())
	case r.URL.Path == "/order" && r.Method == http.MethodPost:
		s.orders.Add(1)
		fmt.Fprint(w, `<title>Thanks</title><h1>Order placed</h1>`)
	case r.URL.Path == "/mug":
		fmt.Fprint(w, `<title>Blue mug</title><h1>Blue mug no. 1</h1><form method="post" action="/order"><button>Place order</button></form>`)
	default:
		n, _ := strconv.Atoi(r.URL.Query().Get("page"))
		n = max(n, 1)
		var b strings.Builder
		fmt.Fprintf(&b, `<title>Mugs, page %d</title><h1>Mugs</h1><p>Page %d of 6</p><ul>`, n, n)
		for k := (n - 1) * 10; k < n*10; k++ {
			name, cents := product(k)
			fmt.Fprintf(&b, `<li>%s $%d.%02d</li>`, name, cents/100, cents%100)
		}
		b.WriteString(`</ul>`)
		if n < 6 {
			fmt.Fprintf(&b, `<a href="/?page=%d">Next</a>`, n+1)
		}
		fmt.Fprint(w, b.String())
	}
}

// checkForm reports how the posted form differs from formValues.
func (s *shop) checkForm() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.forms != 1 {
		return fmt.Sprintf("the form was posted %d times, want once", s.forms)
	}
	want := formValues()
	for i, f := range formFields {
		if got := s.form.Get(fmt.Sprintf("f%d", i)); got != want[f] {
			return fmt.Sprintf("%s is %q, want %q", f, got, want[f])
		}
	}
	if got := s.form.Get("country"); got != "Norway" {
		return fmt.Sprintf("country is %q", got)
	}
	return ""
}

// collectScript is the program a model writes to list the blue mugs under
// $20 over every result page.
const collectScript = `var found = [];
for (var page = 1; ; page++) {
  var s = snapshot();
  s.nodes.forEach(function (n) {
    var m = /(Blue mug no\. \d+) \$(\d+\.\d\d)/.exec(n.text);
    if (m && parseFloat(m[2]) < 20) found.push(m[1] + " $" + m[2]);
  });
  var next = s.find({role: "link", name: "Next"});
  if (!next) break;
  click(next.ref);
}
log("read", page, "pages");
return found;`

// fillScript fills and sends the form; values by label.
func fillScript(formURL string) string {
	v, _ := json.Marshal(formValues())
	return `goto(` + strconv.Quote(formURL) + `);
var values = ` + string(v) + `;
var s = snapshot();
for (var label in values) {
  if (label === "Country") continue;
  var field = s.nodes.filter(function (n) { return n.ref && n.name === label; })[0];
  if (!field) throw new Error("no field " + label);
  type(field.ref, values[label]);
}
select(s.find({role: "combobox", name: "Country"}).ref, values.Country);
click(s.find({role: "button", name: "Send"}).ref);
return snapshot().find({role: "heading"}).name;`
}

var priceLine = regexp.MustCompile(`(Blue mug no\. \d+) \$(\d+)\.(\d\d)`)

// shopModel plays the two tasks, listing the mugs and sending the form,
// with scripts or with single steps; it answers with the list.
func shopModel(s *shop, scripts bool) modelserver.Responder {
	var mu sync.Mutex
	var found []string
	return modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		mu.Lock()
		defer mu.Unlock()
		obs := req.LastUser()
		call := func(name string, args map[string]any) modelserver.Turn {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall(name, args)}}
		}
		done := func() modelserver.Turn { return call("done", map[string]any{"answer": strings.Join(found, "; ")}) }
		if scripts {
			last := req.LastTool()
			switch {
			case strings.Contains(last, "the form was sent"):
				return done()
			case strings.Contains(last, `"result":[`):
				var r struct{ Result []string }
				body := last[strings.Index(last, "{") : strings.LastIndex(last, "}")+1]
				if err := json.Unmarshal([]byte(body), &r); err != nil {
					return call("fail", map[string]any{"reason": "unreadable result " + err.Error()})
				}
				found = r.Result
				return call("script", map[string]any{"code": fillScript(s.URL + "/form")})
			case last != "":
				return call("fail", map[string]any{"reason": "the script failed: " + last})
			}
			return call("script", map[string]any{"code": collectScript})
		}
		// Single steps: read each page, click Next; then the form.
		switch {
		case strings.Contains(obs, "Thank you, the form was sent"):
			return done()
		case strings.Contains(obs, "Contact details"):
			var calls []modelserver.Call
			for label, v := range formValues() {
				role := "textbox"
				if label == "Country" {
					role = "combobox"
				}
				ref, ok := modelserver.FindRef(obs, role, label)
				if !ok {
					return call("fail", map[string]any{"reason": "no field " + label})
				}
				if label == "Country" {
					calls = append(calls, modelserver.ToolCall("select", map[string]any{"ref": ref, "option": v}))
				} else {
					calls = append(calls, modelserver.ToolCall("type", map[string]any{"ref": ref, "text": v}))
				}
			}
			ref, _ := modelserver.FindRef(obs, "button", "Send")
			calls = append(calls, modelserver.ToolCall("click", map[string]any{"ref": ref}))
			return modelserver.Turn{ToolCalls: calls}
		}
		for _, m := range priceLine.FindAllStringSubmatch(obs, -1) {
			if p, _ := strconv.Atoi(m[2]); p < 20 && !slices.Contains(found, m[1]+" $"+m[2]+"."+m[3]) {
				found = append(found, m[1]+" $"+m[2]+"."+m[3])
			}
		}
		if ref, ok := modelserver.FindRef(obs, "link", "Next"); ok {
			return call("click", map[string]any{"ref": ref})
		}
		return call("goto", map[string]any{"url": s.URL + "/form"})
	})
}

const shopTask = "List every blue mug under $20 in this shop with its price, then send the contact form with my details."

// TestScriptPaginationAndForm: the price list over six result pages in one
// script call and the form's twelve fields in another, against single
// steps: the same answer and the same form on the server, in 3 model calls
// instead of 8.
func TestScriptPaginationAndForm(t *testing.T) {
	t.Parallel()
	for _, scripts := range []bool{true, false} {
		t.Run(fmt.Sprintf("scripts=%v", scripts), func(t *testing.T) {
			t.Parallel()
			s := newShop(t)
			model, srv := newModel(t, shopModel(s, scripts))
			a := mustAgent(t, tab(t), model, agent.WithScripts(scripts))
			res := a.Run(context.Background(), agent.Task{URL: s.URL + "/?page=1", Instruction: shopTask})
			if res.Code != agent.CodeSuccess {
				t.Fatalf("%s: %s\nsteps: %+v", res.Code, res.Message, res.Steps)
			}
			if want := strings.Join(wantMugs(), "; "); res.Answer != want {
				t.Errorf("answer\n%s\nwant\n%s", res.Answer, want)
			}
			if msg := s.checkForm(); msg != "" {
				t.Error(msg)
			}
			calls := len(srv.Requests())
			if scripts && calls > 3 || !scripts && calls < 7 {
				t.Errorf("%d model calls with scripts=%v", calls, scripts)
			}
			offered := slices.Contains(srv.Requests()[0].Req.ToolNames(), agent.ToolScript)
			if offered != scripts {
				t.Errorf("the script tool offered: %v", offered)
			}
			if scripts {
				rec := res.Steps[0].Actions[0]
				if rec.Tool != agent.ToolScript || len(rec.Calls) != 11 { // 6 snapshots, 5 clicks
					t.Fatalf("the script's record: %d calls: %+v", len(rec.Calls), rec)
				}
				if c := rec.Calls[1]; c.Tool != "click" || c.Element == nil || c.Element.Name != "Next" {
					t.Errorf("its second call: %+v", c)
				}
			}
			t.Logf("scripts=%v: %d model calls, %d prompt tokens", scripts, calls, res.Usage.PromptTokens)
		})
	}
}

// scriptModel runs one script, then ends with done, answering with the
// script's result (or fail with its error).
func scriptModel(t *testing.T, code string) (contract.Model, *modelserver.Server) {
	return newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		if last := req.LastTool(); last != "" {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]string{"answer": last})}}
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("script", map[string]string{"code": code})}}
	}))
}

// TestScriptEndlessLoopEndsAtItsBound: a script that never ends is stopped
// within the iteration's bound; the model gets its code and line, the task
// goes on.
func TestScriptEndlessLoopEndsAtItsBound(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	model, srv := scriptModel(t, "var n = 0;\nwhile (true) { n++ }")
	a := mustAgent(t, tab(t), model, agent.WithIterationTimeout(4*time.Second))
	t0 := time.Now()
	res := a.Run(context.Background(), agent.Task{URL: page(t, simplePage), Instruction: "loop"})
	if res.Code != agent.CodeSuccess {
		t.Fatalf("%s: %s", res.Code, res.Message)
	}
	if !strings.Contains(res.Answer, "SCRIPT_TIMEOUT at line 2") {
		t.Errorf("the model was told %q", res.Answer)
	}
	if ms := res.Steps[0].ActionMS; ms > 4000 || ms < 2000 {
		t.Errorf("the script ran %d ms; its bound is the iteration's 4 s less a reserve", ms)
	}
	if d := time.Since(t0); d > 15*time.Second {
		t.Errorf("the task took %s", d)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d model calls", n)
	}
}

// TestScriptConfirmation: a script's click on "Place order" under
// --confirm purchases asks the person; a no is an error the script
// catches, and the order is not posted.
func TestScriptConfirmation(t *testing.T) {
	t.Parallel()
	for _, answer := range []string{"yes", "no"} {
		t.Run(answer, func(t *testing.T) {
			t.Parallel()
			s := newShop(t)
			model, _ := scriptModel(t, `var b = snapshot().find({role: "button", name: "Place order"});
try { click(b.ref); return "ordered: " + snapshot().find({role: "heading"}).name } catch (e) { return "caught " + e.code }`)
			var asked atomic.Int32
			cf := agent.ConfirmerFunc(func(_ context.Context, q agent.Confirmation) (bool, error) {
				asked.Add(1)
				if !strings.Contains(q.Question, `click button "Place order"`) {
					t.Errorf("question %q", q.Question)
				}
				return answer == "yes", nil
			})
			a := mustAgent(t, tab(t), model, agent.WithPolicy(purchases(t)), agent.WithConfirmer(cf))
			res := a.Run(context.Background(), agent.Task{URL: s.URL + "/mug", Instruction: "order the mug"})
			if res.Code != agent.CodeSuccess {
				t.Fatalf("%s: %s", res.Code, res.Message)
			}
			want, orders := "caught REFUSED", int32(0)
			if answer == "yes" {
				want, orders = "ordered: Order placed", 1
			}
			if !strings.Contains(res.Answer, want) || s.orders.Load() != orders || asked.Load() != 1 {
				t.Errorf("answer %q, %d orders, %d questions", res.Answer, s.orders.Load(), asked.Load())
			}
			if len(res.Policy) != 1 || res.Policy[0].Allowed != (answer == "yes") {
				t.Errorf("policy %+v", res.Policy)
			}
		})
	}
}

// TestScriptGotoOutsideAllowedDomains: a script's goto to a site outside
// the allowed domains is refused in the browser; the other site is never
// asked.
func TestScriptGotoOutsideAllowedDomains(t *testing.T) {
	t.Parallel()
	s := newShop(t)
	other := newShop(t)
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	model, _ := scriptModel(t, `try { goto(`+strconv.Quote(otherURL+"/form")+`); return "went" } catch (e) { return e.code + ": " + e.message }`)
	host := strings.TrimPrefix(s.URL, "http://")
	allowed, err := contract.ParseDomainPatterns("http://" + host)
	if err != nil {
		t.Fatal(err)
	}
	a := mustAgent(t, tab(t), model, agent.WithNavigation(contract.NavigationPolicy{Allowed: allowed, AllowPrivateNetwork: true}))
	res := a.Run(context.Background(), agent.Task{URL: s.URL + "/", Instruction: "go elsewhere"})
	if res.Code != agent.CodeSuccess {
		t.Fatalf("%s: %s", res.Code, res.Message)
	}
	if !strings.Contains(res.Answer, "ACTION_FAILED") || other.hits.Load() != 0 {
		t.Errorf("answer %q; the other site got %d requests", res.Answer, other.hits.Load())
	}
}

// TestScriptSecretByOrigin: a script types a secret by its placeholder;
// the value reaches the site's field and no model request, step or trace
// line; the script itself never reads it.
func TestScriptSecretByOrigin(t *testing.T) {
	t.Parallel()
	const pw = "hunter2-s3cret-value"
	s := newShop(t)
	other := strings.Replace(newShop(t).URL, "127.0.0.1", "localhost", 1)
	model, srv := scriptModel(t, fmt.Sprintf(`goto(%q); var s = snapshot();
type(s.find({name: "First name"}).ref, "<secret>pw</secret>");
var again = snapshot(); var out = [again.find({name: "First name"}).value, again.text.indexOf("<secret>pw</secret>") > 0];
goto(%q); var o = snapshot();
try { type(o.find({name: "First name"}).ref, "<secret>pw</secret>"); out.push("typed elsewhere") } catch (e) { out.push(e.code) }
return out;`, s.URL+"/form", other+"/form"))
	var tr traceLines
	a := mustAgent(t, tab(t), model, agent.WithTracer(&tr), agent.WithNavigation(contract.NavigationPolicy{AllowPrivateNetwork: true}))
	res := a.Run(context.Background(), agent.Task{URL: s.URL + "/", Instruction: "type it", Secrets: map[string]string{"pw": pw}})
	if res.Code != agent.CodeSuccess {
		t.Fatalf("%s: %s", res.Code, res.Message)
	}
	if !strings.Contains(res.Answer, `"result":["<secret>pw</secret>",true,"ACTION_FAILED"]`) {
		t.Errorf("the script read %q; want the field masked and the value nowhere in its snapshot", res.Answer)
	}
	for _, r := range srv.Requests() {
		if i := strings.Index(string(r.Req.Raw), pw); i >= 0 {
			t.Fatalf("the secret reached the model: %s", string(r.Req.Raw)[max(i-300, 0):i+30])
		}
	}
	b, _ := json.Marshal(res)
	if strings.Contains(string(b), pw) || strings.Contains(tr.String(), pw) {
		t.Fatal("the secret is in the result or the trace")
	}
}

// traceLines is a Tracer that keeps what it is given as JSON.
type traceLines struct {
	mu sync.Mutex
	b  strings.Builder
}

func (tl *traceLines) TraceModel(c agent.ModelCall)              { tl.add(c) }
func (tl *traceLines) TraceSnapshot(context.Context, int)        {}
func (tl *traceLines) TraceStep(_ context.Context, s agent.Step) { tl.add(s) }
func (tl *traceLines) add(v any) {
	b, _ := json.Marshal(v)
	tl.mu.Lock()
	tl.b.Write(b)
	tl.mu.Unlock()
}
func (tl *traceLines) String() string { tl.mu.Lock(); defer tl.mu.Unlock(); return tl.b.String() }

// TestScriptFrozenPageCall: a call that freezes the page ends within its
// budget inside the script, the page is recovered, and the script sees
// the error and goes on.
func TestScriptFrozenPageCall(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	url := page(t, `<title>Freezer</title><button onclick="for(;;){}">Freeze</button><button onclick="document.title='ok'">Fine</button>`)
	model, _ := scriptModel(t, `var s = snapshot(); var code;
try { click(s.find({name: "Freeze"}).ref) } catch (e) { code = e.code }
var after = snapshot();
return [code, after.find({role: "button", name: "Fine"}) !== null];`)
	a := mustAgent(t, tab(t), model, agent.WithIterationTimeout(60*time.Second))
	t0 := time.Now()
	res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "freeze"})
	if res.Code != agent.CodeSuccess {
		t.Fatalf("%s: %s", res.Code, res.Message)
	}
	if !strings.Contains(res.Answer, `"result":["OPERATION_TIMEOUT",true]`) {
		t.Errorf("the script saw %q", res.Answer)
	}
	if d := time.Since(t0); d > 40*time.Second {
		t.Errorf("took %s", d)
	}
}

// BenchmarkScriptShop measures what code mode saves on the shop's two
// tasks (six result pages listed, a 12-field form sent): model calls and
// prompt tokens per task, with scripts and with single steps.
func BenchmarkScriptShop(b *testing.B) {
	for _, scripts := range []bool{true, false} {
		b.Run(fmt.Sprintf("scripts=%v", scripts), func(b *testing.B) {
			var calls, prompt int
			for b.Loop() {
				s := newShop(b)
				srv, err := modelserver.Start(shopModel(s, scripts))
				if err != nil {
					b.Fatal(err)
				}
				model, err := llm.New(llm.Config{BaseURL: srv.BaseURL(), Model: "scripted"})
				if err != nil {
					b.Fatal(err)
				}
				a, err := agent.New(shared, model, agent.WithScripts(scripts))
				if err != nil {
					b.Fatal(err)
				}
				res := a.Run(context.Background(), agent.Task{URL: s.URL + "/?page=1", Instruction: shopTask})
				if res.Code != agent.CodeSuccess || s.checkForm() != "" {
					b.Fatalf("%s: %s %s", res.Code, res.Message, s.checkForm())
				}
				calls += len(srv.Requests())
				prompt += res.Usage.PromptTokens
				_ = srv.Close()
			}
			b.ReportMetric(float64(calls)/float64(b.N), "model-calls/task")
			b.ReportMetric(float64(prompt)/float64(b.N), "prompt-tokens/task")
		})
	}
}

// TestScriptReadOnly: under --read-only, a script's click that would post
// the form is stopped in the browser; the site gets no POST.
func TestScriptReadOnly(t *testing.T) {
	t.Parallel()
	s := newShop(t)
	model, _ := scriptModel(t, `var s = snapshot(); type(s.find({name: "First name"}).ref, "Ada");
try { click(s.find({role: "button", name: "Send"}).ref) } catch (e) { return e.code }
return snapshot().title`)
	a := mustAgent(t, chrome.Browser(t, browser.Options{ReadOnly: true}), model)
	res := a.Run(context.Background(), agent.Task{URL: s.URL + "/form", Instruction: "send the form"})
	if res.Code != agent.CodeSuccess {
		t.Fatalf("%s: %s", res.Code, res.Message)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.forms != 0 {
		t.Errorf("the form was posted under --read-only; the script said %q", res.Answer)
	}
	t.Logf("the script said %s", res.Answer)
}
