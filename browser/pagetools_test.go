package browser

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

// toolsPage registers page tools imperatively (add_to_cart, which writes
// what it added on the page; never, which never answers; boom, which
// throws; gone, which it removes when asked) and declares one with a form
// (search, submitted by itself), and has a frame of another site that
// registers one of its own (frame_info), which the page lets it offer
// (allow="tools": a frame the permissions policy does not allow cannot).
func toolsPage(t *testing.T) string {
	t.Helper()
	frame := serve(t, map[string]string{"/f": `<p>frame</p><script>
document.modelContext.registerTool({name: 'frame_info', description: 'What the frame knows', inputSchema: {type: 'object', properties: {}},
  annotations: {readOnlyHint: true}, execute: async () => ({content: [{type: 'text', text: 'the frame says hello from ' + location.host}]})});
</script>`})
	frameURL := strings.Replace(frame, "127.0.0.1", "localhost", 1) + "/f"
	return serve(t, map[string]string{
		"/": `<title>Mugs</title><h1>Mugs</h1><p id=cart>cart: empty</p>
<form toolname="search" tooldescription="Search the mugs" toolautosubmit action="/results">
  <input name="q" required toolparamdescription="what to look for"><button>Search</button></form>
<form toolname="subscribe" tooldescription="Subscribe to the news" action="/results">
  <input name="email" aria-label="Email" required><button>Subscribe</button></form>
<iframe title="Other site" allow="tools" src="` + frameURL + `" width=300 height=100></iframe>
<script>
const mc = document.modelContext;
mc.registerTool({name: 'add_to_cart', description: 'Add a mug to the cart',
  inputSchema: {type: 'object', properties: {sku: {type: 'string', description: 'the mug'}, qty: {type: 'integer'}}, required: ['sku']},
  execute: async ({sku, qty}) => { document.getElementById('cart').textContent = 'cart: ' + (qty || 1) + ' x ' + sku; return {content: [{type: 'text', text: 'added ' + sku}]}; }});
mc.registerTool({name: 'never', description: 'Never answers', inputSchema: {type: 'object', properties: {}}, execute: () => new Promise(() => {})});
mc.registerTool({name: 'boom', description: 'Fails', execute: () => { throw new Error('out of stock'); }});
const ctl = new AbortController();
mc.registerTool({name: 'gone', description: 'Removed soon', execute: async () => 'still here'}, {signal: ctl.signal});
window.removeGone = () => { ctl.abort(); return true; };
</script>`,
		"/results": `<title>Results</title><p>results for the search</p>`,
	}) + "/"
}

func TestPageTools(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	b := newToolTabWith(t, Options{})
	s := open(t, b, toolsPage(t))
	names := map[string]contract.PageTool{}
	for _, pt := range s.PageTools {
		names[pt.Name] = pt
	}
	for _, want := range []string{"add_to_cart", "never", "boom", "gone", "search", "frame_info"} {
		if _, ok := names[want]; !ok {
			t.Errorf("the snapshot does not list page tool %s: %+v\n%s", want, s.PageTools, s.Text)
		}
	}
	if !strings.Contains(s.Text, "- add_to_cart(sku: string — the mug, qty?: integer): Add a mug to the cart") {
		t.Errorf("the snapshot's line of add_to_cart:\n%s", s.Text)
	}
	if ft := names["frame_info"]; !ft.ReadOnly || !strings.Contains(ft.Origin, "localhost") || !strings.Contains(s.Text, "offered by a frame of http://localhost") {
		t.Errorf("the frame's tool: %+v\n%s", ft, s.Text)
	}
	if !names["search"].Form {
		t.Errorf("the form's tool is not marked a form: %+v", names["search"])
	}

	out := do(t, b, contract.Action{Name: contract.ActPageTool, Tool: "add_to_cart", Arguments: json.RawMessage(`{"sku":"B-12","qty":2}`)})
	if !strings.Contains(out, "page tool add_to_cart answered: added B-12") {
		t.Errorf("add_to_cart: %s", out)
	}
	if got := evalPage[string](t, b, "document.getElementById('cart').textContent"); got != "cart: 2 x B-12" {
		t.Errorf("the page's cart: %q", got)
	}
	// A schema violation is refused before the page sees it.
	_, err := b.Do(tctx(t), contract.Action{Name: contract.ActPageTool, Tool: "add_to_cart", Arguments: json.RawMessage(`{"qty":"two"}`)})
	if err == nil || !strings.Contains(err.Error(), "do not match its input schema") {
		t.Errorf("a call without sku: %v", err)
	}
	if got := evalPage[string](t, b, "document.getElementById('cart').textContent"); got != "cart: 2 x B-12" {
		t.Errorf("a refused call reached the page: %q", got)
	}
	if _, err := b.Do(tctx(t), contract.Action{Name: contract.ActPageTool, Tool: "boom"}); err == nil || !strings.Contains(err.Error(), "out of stock") {
		t.Errorf("a tool that throws: %v", err)
	}
	out = do(t, b, contract.Action{Name: contract.ActPageTool, Tool: "frame_info"})
	if !strings.Contains(out, "the frame says hello from localhost") {
		t.Errorf("the frame's tool: %s", out)
	}
	// A tool that never answers ends at the action's budget.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	start := time.Now()
	if _, err := b.Do(ctx, contract.Action{Name: contract.ActPageTool, Tool: "never"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a tool that never answers: %v", err)
	}
	if d := time.Since(start); d > 1500*time.Millisecond {
		t.Errorf("the call of a tool that never answers took %s", d)
	}
	// A tool removed after the listing is gone.
	evalPage[bool](t, b, "removeGone()")
	if _, err := b.Do(tctx(t), contract.Action{Name: contract.ActPageTool, Tool: "gone"}); err == nil || !strings.Contains(err.Error(), "offers no tool") {
		t.Errorf("a removed tool: %v", err)
	}
	if s := snapshot(t, b); strings.Contains(s.Text, "- gone(") {
		t.Errorf("the removed tool is still listed:\n%s", s.Text)
	}
	// A form's tool without toolautosubmit fills its form and leaves it.
	out = do(t, b, contract.Action{Name: contract.ActPageTool, Tool: "subscribe", Arguments: json.RawMessage(`{"email":"a@example.org"}`)})
	if !strings.Contains(out, "filled its form") || strings.Contains(out, "navigated") {
		t.Errorf("the form's tool that does not submit: %s", out)
	}
	if got := evalPage[string](t, b, "document.querySelector('[name=email]').value"); got != "a@example.org" {
		t.Errorf("the form's field: %q", got)
	}
	// A form's tool fills its form, and this one submits it.
	out = do(t, b, contract.Action{Name: contract.ActPageTool, Tool: "search", Arguments: json.RawMessage(`{"q":"blue"}`)})
	if !strings.Contains(out, "navigated to") || !strings.Contains(out, "q=blue") {
		t.Errorf("the form's tool: %s", out)
	}
	if s := snapshot(t, b); len(s.PageTools) != 0 {
		t.Errorf("the tools of the page left behind are still listed: %+v", s.PageTools)
	}
}

// A read-only run calls only tools the page marks read-only.
func TestPageToolsReadOnly(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	b := newToolTabWith(t, Options{ReadOnly: true})
	open(t, b, toolsPage(t))
	if _, err := b.Do(tctx(t), contract.Action{Name: contract.ActPageTool, Tool: "add_to_cart", Arguments: json.RawMessage(`{"sku":"B-12"}`)}); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("a writing tool in a read-only run: %v", err)
	}
	if got := evalPage[string](t, b, "document.getElementById('cart').textContent"); got != "cart: empty" {
		t.Errorf("the page's cart: %q", got)
	}
	if out := do(t, b, contract.Action{Name: contract.ActPageTool, Tool: "frame_info"}); !strings.Contains(out, "hello") {
		t.Errorf("a read-only tool in a read-only run: %s", out)
	}
}

// A page without tools lists none, and the snapshot says nothing of them.
func TestNoPageTools(t *testing.T) {
	t.Parallel()
	b := newTab(t)
	s := open(t, b, servePage(t, `<title>Plain</title><p>nothing to offer</p>`))
	if len(s.PageTools) != 0 || strings.Contains(s.Text, "page tools") {
		t.Errorf("a page without tools: %+v\n%s", s.PageTools, s.Text)
	}
}

// originTrialToken is a token of Chrome's WebMCP origin trial for origin,
// signed with priv (Chromium's token format, version 3: the version, the
// Ed25519 signature of the version, length and payload, the length, the
// JSON payload).
func originTrialToken(priv ed25519.PrivateKey, origin string) string {
	payload := fmt.Sprintf(`{"origin":%q,"feature":"WebMCP","expiry":%d}`, origin, time.Now().Add(time.Hour).Unix())
	signed := binary.BigEndian.AppendUint32([]byte{3}, uint32(len(payload)))
	signed = append(signed, payload...)
	tok := append([]byte{3}, ed25519.Sign(priv, signed)...)
	tok = binary.BigEndian.AppendUint32(tok, uint32(len(payload)))
	return base64.StdEncoding.EncodeToString(append(tok, payload...))
}

// The default browser offers page tools where a plain Chromium lets a page
// have them: a page with a token of WebMCP's origin trial offers its tools
// and page_tool calls them; a page without one sees no document.modelContext
// and no WebMCP globals, and its snapshot lists none. The browser is
// launched as Launch launches one, with the default options, and a
// trial key of the test's own in place of Chrome's (a process switch).
func TestPageToolsOriginTrial(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	page := func(meta string) string {
		return `<title>Mugs</title>` + meta + `<p id=cart>cart: empty</p>
<p id=probe></p>
<script>
document.getElementById('probe').textContent = JSON.stringify(['modelContext' in document, typeof ModelContext, typeof ToolActivatedEvent, typeof ToolCancelEvent]);
if (document.modelContext) document.modelContext.registerTool({name: 'add_to_cart', description: 'Add a mug to the cart',
  inputSchema: {type: 'object', properties: {sku: {type: 'string'}}, required: ['sku']},
  execute: async ({sku}) => { document.getElementById('cart').textContent = 'cart: ' + sku; return 'added ' + sku; }});
</script>`
	}
	trial := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, page(`<meta http-equiv="origin-trial" content="`+originTrialToken(priv, "http://"+r.Host)+`">`))
	}))
	t.Cleanup(trial.Close)
	plain := servePage(t, page(""))

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := Launch(ctx, Options{Logger: testLogger(), launchFlags: map[string]any{"origin-trial-public-key": base64.StdEncoding.EncodeToString(pub)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})

	s := open(t, b, plain)
	if got := evalPage[string](t, b, "document.getElementById('probe').textContent"); got != `[false,"undefined","undefined","undefined"]` {
		t.Errorf("a page without a trial token sees WebMCP (modelContext in document, ModelContext, ToolActivatedEvent, ToolCancelEvent): %s", got)
	}
	if len(s.PageTools) != 0 {
		t.Errorf("a page without a trial token offers tools: %+v", s.PageTools)
	}

	s = open(t, b, trial.URL+"/")
	if got := evalPage[string](t, b, "document.getElementById('probe').textContent"); got != `[true,"function","function","function"]` {
		t.Errorf("a page with a trial token does not see WebMCP: %s", got)
	}
	if len(s.PageTools) != 1 || s.PageTools[0].Name != "add_to_cart" {
		t.Fatalf("the trial page's tools: %+v\n%s", s.PageTools, s.Text)
	}
	if out := do(t, b, contract.Action{Name: contract.ActPageTool, Tool: "add_to_cart", Arguments: json.RawMessage(`{"sku":"B-12"}`)}); !strings.Contains(out, "added B-12") {
		t.Errorf("add_to_cart: %s", out)
	}
	if got := evalPage[string](t, b, "document.getElementById('cart').textContent"); got != "cart: B-12" {
		t.Errorf("the trial page's cart: %q", got)
	}
}
