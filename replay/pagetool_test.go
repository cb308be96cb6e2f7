package replay_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/replay"
	secretpkg "github.com/webagent/webagent/secret"
	"github.com/webagent/webagent/testfixture/tier"
	"github.com/webagent/webagent/trace"
)

// A run that calls a page tool with a secret in its arguments is traced
// with the placeholder (no value in any file), and replays: the tool is
// called again, the secret filled in on its own site.
func TestReplayPageTool(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	const code = "SAVE-9931-secret"
	var (
		mu  sync.Mutex
		got []string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			mu.Lock()
			got = append(got, string(body))
			mu.Unlock()
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<title>Shop</title><h1>Shop</h1><script>
document.modelContext.registerTool({name: 'apply_coupon', description: 'Apply a coupon', inputSchema: {type: 'object', properties: {code: {type: 'string'}}, required: ['code']},
  execute: async ({code}) => { await fetch('/coupon', {method: 'POST', body: code}); return 'applied'; }});
</script>`)
	}))
	t.Cleanup(srv.Close)
	received := func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), got...) }

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	step := 0
	model, err := modelserver.Start(modelserver.ResponderFunc(func(*modelserver.ChatRequest) modelserver.Turn {
		step++
		if step == 1 {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("page_tool", map[string]any{"name": "apply_coupon", "arguments": map[string]any{"code": "<secret>coupon</secret>"}})}}
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": "applied"})}}
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	client, err := llm.New(llm.Config{BaseURL: model.BaseURL(), Model: "scripted"})
	if err != nil {
		t.Fatal(err)
	}
	secrets := map[string]string{"coupon": code}
	b := toolChrome.Browser(t, browser.Options{})
	dir := filepath.Join(t.TempDir(), "trace")
	task := agent.Task{URL: srv.URL + "/", Instruction: "apply the coupon <secret>coupon</secret>", Secrets: secrets}
	tw, err := trace.Create(dir, trace.Header{Task: task.Instruction, URL: task.URL, Secrets: []string{"coupon"}}, trace.Options{Masker: secretpkg.NewMasker(secrets), Shots: b})
	if err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(b, client, agent.WithTracer(tw))
	if err != nil {
		t.Fatal(err)
	}
	res := a.Run(ctx, task)
	if err := tw.End(ctx, res); err != nil {
		t.Fatal(err)
	}
	if res.Code != agent.CodeSuccess || len(received()) != 1 || received()[0] != code {
		t.Fatalf("recorded run: %s %s; the shop got %q", res.Code, res.Message, received())
	}
	_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if data, _ := os.ReadFile(p); bytes.Contains(data, []byte(code)) {
				t.Errorf("%s holds the secret's value", p)
			}
		}
		return nil
	})

	tr, err := trace.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := replay.Run(ctx, toolChrome.Browser(t, browser.Options{}), tr, replay.Options{Secrets: secrets}); err != nil {
		t.Fatal(err)
	}
	if r := received(); len(r) != 2 || r[1] != code || !strings.Contains(string(mustRead(t, filepath.Join(dir, "trace.jsonl"))), `\u003csecret\u003ecoupon\u003c/secret\u003e`) {
		t.Errorf("the replay: the shop got %q", r)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
