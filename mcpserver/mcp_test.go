package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/mcpserver"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/machinelock"
	"github.com/webagent/webagent/testfixture/tier"
)

func TestMain(m *testing.M) {
	_ = machinelock.Shared()
	// Named sessions (a stateless client's, a call's "session") have
	// their sockets in a folder of the tests' own, not in the user's.
	rt, err := os.MkdirTemp("", "mcpserver-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_RUNTIME_DIR", rt)
	code := m.Run()
	if err := viewerChrome.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	os.RemoveAll(rt)
	// A named session's watcher (launcher.SweepOnExit) outlives the tests
	// by design: it sweeps after the process; the goroutine that collects
	// its exit goes with it.
	if err := goleak.Find(goleak.IgnoreAnyFunction("github.com/webagent/webagent/browser/launcher.startReaper.func1")); code == 0 && err != nil {
		fmt.Fprintln(os.Stderr, "goroutine leak:", err)
		code = 1
	}
	os.Exit(code)
}

const backstop = 2 * time.Second

// site serves the test pages on 127.0.0.1.
func site(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, `<!doctype html><title>Counter</title>
<button onclick="document.getElementById('n').textContent++">Count</button> <span id=n>0</span>
<button onclick="while (true) {}">Freeze</button>`)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// newServer is a Server over the scripted model, allowed to open pages on
// 127.0.0.1.
func newServer(t *testing.T, r modelserver.Responder) (*mcpserver.Server, *modelserver.Server) {
	t.Helper()
	return newServerWith(t, r, agent.Limits{OperationTimeout: backstop, IterationTimeout: 20 * time.Second})
}

// newServerWith is newServer with run_task's limits.
func newServerWith(t *testing.T, r modelserver.Responder, lim agent.Limits) (*mcpserver.Server, *modelserver.Server) {
	t.Helper()
	model, err := modelserver.Start(r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = model.Close() })
	client, err := llm.New(llm.Config{BaseURL: model.BaseURL(), Model: "scripted"})
	if err != nil {
		t.Fatal(err)
	}
	allowed, err := contract.ParseDomainPatterns("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	s := mcpserver.New(mcpserver.Config{
		Policy: contract.NavigationPolicy{Allowed: allowed}, Model: client, Limits: lim,
	})
	t.Cleanup(func() { _ = s.Close() })
	return s, model
}

// pipes are a client's and a server's ends of stdio: the server reads
// inR and writes outW.
func pipes() (inR *io.PipeReader, inW *io.PipeWriter, outR *io.PipeReader, outW *io.PipeWriter) {
	inR, inW = io.Pipe()
	outR, outW = io.Pipe()
	return inR, inW, outR, outW
}

// stdio connects a client to the server over a pair of pipes, as an MCP
// client that started the server on stdin and stdout; closing the client
// is closing stdin.
func stdio(t *testing.T, s *mcpserver.Server, opts *mcp.ClientOptions) (*mcp.ClientSession, <-chan error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- s.ServeIO(context.Background(), inR, outW)
		_ = outW.Close()
	}()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts)
	cs, err := c.Connect(ctx(t), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs, served
}

// overHTTP connects a client over streamable HTTP.
func overHTTP(t *testing.T, s *mcpserver.Server, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(hs.Close)
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts)
	cs, err := c.Connect(ctx(t), &mcp.StreamableClientTransport{Endpoint: hs.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return c
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args any) (*mcp.CallToolResult, string) {
	t.Helper()
	res, err := cs.CallTool(ctx(t), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var sb strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			sb.WriteString(tc.Text)
		}
	}
	return res, sb.String()
}

// The browser tools and run_task, over stdio and over HTTP: a page
// navigated, snapshot and clicked; a click that freezes the page answered
// within the backstop and the page recovered; bad calls refused with what
// is wrong; a task run by the scripted model.
func TestTools(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	url := site(t)
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			s, _ := newServer(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
				return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": "the counter shows 0"})}}
			}))
			progress := make(chan string, 10)
			opts := &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
				progress <- r.Params.Message
			}}
			var cs *mcp.ClientSession
			if transport == "stdio" {
				var served <-chan error
				cs, served = stdio(t, s, opts)
				defer func() {
					_ = cs.Close() // stdin closed: the server ends the session
					if err := <-served; err != nil {
						t.Errorf("ServeIO: %v", err)
					}
				}()
			} else {
				cs = overHTTP(t, s, opts)
				defer cs.Close()
			}
			tools, err := cs.ListTools(ctx(t), nil)
			if err != nil {
				t.Fatal(err)
			}
			names := map[string]bool{}
			for _, tool := range tools.Tools {
				names[tool.Name] = true
			}
			for _, want := range []string{"browser_navigate", "browser_snapshot", "browser_click", "browser_type", "browser_drag", "browser_mouse", "browser_wait", "browser_tabs", "browser_screenshot", "run_task"} {
				if !names[want] {
					t.Errorf("no tool %s in %v", want, names)
				}
			}

			_, out := call(t, cs, "browser_navigate", map[string]any{"url": url})
			ref, ok := modelserver.FindRef(out, "button", "Count")
			if !strings.Contains(out, "navigated to "+url) || !ok {
				t.Fatalf("navigate: %s", out)
			}
			_, out = call(t, cs, "browser_click", map[string]any{"ref": ref})
			if !strings.Contains(out, `clicked button "Count"`) || !strings.Contains(out, "1") {
				t.Errorf("click: %s", out)
			}

			// browser_script: three clicks in one call, the count read back.
			_, out = call(t, cs, "browser_script", map[string]any{"code": `var b = snapshot().find({role: "button", name: "Count"});
for (var i = 0; i < 3; i++) click(b.ref);
return snapshot().text.match(/Count\S* (\d+)|(\d+)\s*$/m)[0]`})
			if !strings.Contains(out, `"calls":5`) || !strings.Contains(out, "4") {
				t.Errorf("browser_script: %s", out)
			}
			// browser_snapshot with diff: on a page this small a delta
			// would not be much smaller, so it is the whole page, as it is now.
			if res, out := call(t, cs, "browser_snapshot", map[string]any{"diff": true}); res.IsError || !strings.Contains(out, "\n4\n") {
				t.Errorf("browser_snapshot with diff after the script: %s", out)
			}

			res, out := call(t, cs, "browser_click", map[string]any{"ref": 12})
			if !res.IsError || !strings.Contains(out, `argument "ref" of click must be a string`) {
				t.Errorf("a bad argument: %+v %s", res, out)
			}
			res, out = call(t, cs, "browser_navigate", map[string]any{"url": "file:///etc/passwd"})
			if !res.IsError || !strings.Contains(out, "refused") {
				t.Errorf("navigate to a file: %s", out)
			}
			if _, err := cs.CallTool(ctx(t), &mcp.CallToolParams{Name: "browser_nosuch", Arguments: map[string]any{}}); err == nil || !strings.Contains(err.Error(), "unknown tool") {
				t.Errorf("an unknown tool: %v", err)
			}

			_, out = call(t, cs, "browser_snapshot", map[string]any{})
			freeze, ok := modelserver.FindRef(out, "button", "Freeze")
			if !ok {
				t.Fatalf("snapshot: %s", out)
			}
			start := time.Now()
			res, out = call(t, cs, "browser_click", map[string]any{"ref": freeze})
			took := time.Since(start)
			if !res.IsError || !strings.Contains(out, "was abandoned") {
				t.Errorf("click on a freezing button: %s", out)
			}
			if took > backstop+8*time.Second {
				t.Errorf("the frozen click answered after %s; backstop %s", took, backstop)
			}
			if _, out = call(t, cs, "browser_snapshot", map[string]any{}); !strings.Contains(out, `button "Count"`) {
				t.Errorf("the page was not recovered: %s", out)
			}

			p := &mcp.CallToolParams{Name: "run_task", Arguments: map[string]any{"url": url, "task": "what does the counter show?"}}
			p.SetProgressToken("t1")
			res, err = cs.CallTool(ctx(t), p)
			if err != nil {
				t.Fatal(err)
			}
			out = res.Content[0].(*mcp.TextContent).Text
			var got agent.Result
			b, _ := json.Marshal(res.StructuredContent)
			if err := json.Unmarshal(b, &got); err != nil || got.Code != agent.CodeSuccess || got.Answer != "the counter shows 0" || res.IsError {
				t.Errorf("run_task: %s (%v)", out, err)
			}
			// A task naming a secret the server was not given is refused
			// before it starts, as run and submit refuse it.
			res, out = call(t, cs, "run_task", map[string]any{"url": url, "task": "sign in with <secret>pw</secret>"})
			if !res.IsError || !strings.Contains(out, "no secret pw is declared") {
				t.Errorf("run_task with an undeclared secret: %s", out)
			}
			select {
			case msg := <-progress:
				if !strings.Contains(msg, "step 1") || !strings.Contains(msg, "done") {
					t.Errorf("progress: %q", msg)
				}
			case <-time.After(5 * time.Second):
				t.Error("no progress notification for the task's step")
			}
		})
	}
}

// A task cancelled by its client ends at once: the model's request is
// dropped, no progress comes after, and the session's next call works.
func TestRunTaskCancel(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	url := site(t)
	s, model := newServer(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		return modelserver.Turn{Delay: 30 * time.Second, Text: "too late"}
	}))
	var mu sync.Mutex
	var progress []string
	cs, served := stdio(t, s, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		progress = append(progress, r.Params.Message)
		mu.Unlock()
	}})
	defer func() {
		_ = cs.Close()
		<-served
	}()
	cctx, cancel := context.WithCancel(ctx(t))
	errc := make(chan error, 1)
	go func() {
		p := &mcp.CallToolParams{Name: "run_task", Arguments: map[string]any{"url": url, "task": "wait"}}
		p.SetProgressToken("task-1")
		_, err := cs.CallTool(cctx, p)
		errc <- err
	}()
	rec, err := model.WaitRequest(ctx(t), 0)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("the cancelled call: %v", err)
	}
	select {
	case <-rec.Gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the model request still runs 5 s after the cancel")
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("the model request ended %s after the cancel", took)
	}
	if _, out := call(t, cs, "browser_snapshot", map[string]any{}); !strings.Contains(out, "Counter") {
		t.Errorf("snapshot after the cancel: %s", out)
	}
}

// A line that is not JSON-RPC gets a JSON-RPC error, and the session goes
// on.
func TestMalformedLines(t *testing.T) {
	t.Parallel()
	s, _ := newServer(t, modelserver.Script())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- s.ServeIO(context.Background(), inR, outW)
		_ = outW.Close()
	}()
	dec := json.NewDecoder(outR)
	send := func(line string) map[string]any {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("after %q: %v", line, err)
		}
		return m
	}
	if m := send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	for line, code := range map[string]float64{`{not json`: -32700, `{"foo":1}`: -32600} {
		m := send(line)
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != code {
			t.Errorf("%s: %v, want error %v", line, m, code)
		}
	}
	if m := send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); m["result"] == nil {
		t.Errorf("tools/list after the bad lines: %v", m)
	}
	_ = inW.Close()
	if err := <-served; err != nil {
		t.Errorf("ServeIO after stdin closed: %v", err)
	}
}

// A secret is typed only on its site's field, and no answer shows it, in
// any encoding the page may echo it in.
func TestSecrets(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `<!doctype html><title>Login</title><label>Password <input id=pw oninput="document.getElementById('echo').textContent = this.value + ' ' + btoa(this.value) + ' ' + encodeURIComponent(this.value)"></label><p id=echo></p>`)
	}))
	defer srv.Close()
	const value = "hunter2 pass/word"
	allowed, _ := contract.ParseDomainPatterns("127.0.0.1")
	s := mcpserver.New(mcpserver.Config{Policy: contract.NavigationPolicy{Allowed: allowed}, Secrets: map[string]string{"pw@" + srv.URL: value}})
	defer s.Close()
	cs, served := stdio(t, s, nil)
	defer func() {
		_ = cs.Close()
		<-served
	}()
	_, out := call(t, cs, "browser_navigate", map[string]any{"url": srv.URL})
	field, ok := modelserver.FindRef(out, "textbox", "Password")
	if !ok {
		t.Fatalf("navigate: %s", out)
	}
	res, out := call(t, cs, "browser_navigate", map[string]any{"url": srv.URL + "/?p=<secret>pw</secret>"})
	if !res.IsError || !strings.Contains(out, "the secret pw can only be typed") {
		t.Errorf("a secret in a URL: %s", out)
	}
	_, out = call(t, cs, "browser_type", map[string]any{"ref": field, "text": "<secret>pw</secret>"})
	for _, form := range []string{value, "aHVudGVyMiBwYXNzL3dvcmQ=", "hunter2%20pass%2Fword"} {
		if strings.Contains(out, form) {
			t.Errorf("the answer shows the secret as %q: %s", form, out)
		}
	}
	// The page echoes what it received raw, in base64 and URL-encoded:
	// each form comes back as the placeholder.
	if n := strings.Count(out, "<secret>pw</secret>"); n < 4 { // the value, the three echoes
		t.Errorf("the page's echo of the value is not masked in its three forms: %s", out)
	}
	// The outcome says how long the secret was, never its text, even in a
	// field that is not a password field.
	if !strings.Contains(out, fmt.Sprintf("typed %d characters into", len([]rune(value)))) {
		t.Errorf("the outcome does not give the secret's length: %s", out)
	}
}
