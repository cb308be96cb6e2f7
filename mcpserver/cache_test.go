package mcpserver_test

import (
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/cache"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/mcpserver"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/signin"
	"github.com/webagent/webagent/testfixture/tier"
)

// TestRunTaskCache: run_task under the server's run cache calls the model
// 4 times the first time and not at all the second; "vars" types another
// user; a "vars" the task does not use is refused.
func TestRunTaskCache(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	members := signin.New()
	site := httptest.NewServer(members)
	defer site.Close()
	model, err := modelserver.Start(signin.Model())
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	client, err := llm.New(llm.Config{BaseURL: model.BaseURL(), Model: "scripted"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := cache.Open(filepath.Join(t.TempDir(), "cache"), nil)
	if err != nil {
		t.Fatal(err)
	}
	allowed, _ := contract.ParseDomainPatterns("127.0.0.1")
	s := mcpserver.New(mcpserver.Config{
		Policy: contract.NavigationPolicy{Allowed: allowed}, Model: client, Cache: c,
		Secrets: map[string]string{"pw@" + site.URL: signin.Password},
		Limits:  agent.Limits{OperationTimeout: backstop, IterationTimeout: 20 * time.Second},
	})
	t.Cleanup(func() { _ = s.Close() })
	cs, served := stdio(t, s, nil)
	defer func() { _ = cs.Close(); <-served }()

	runTask := func(user string) (*agent.Result, int) {
		t.Helper()
		before := len(model.Requests())
		res, out := call(t, cs, "run_task", map[string]any{"url": site.URL + "/", "task": signin.Task, "vars": map[string]string{"user": user}})
		var r agent.Result
		if err := json.Unmarshal(mustJSON(t, res.StructuredContent), &r); err != nil || res.IsError {
			t.Fatalf("run_task: %v %s", err, out)
		}
		return &r, len(model.Requests()) - before
	}
	if r, calls := runTask("ann"); calls != 4 || r.Answer != "plan: Gold" || r.Replay == nil || r.Replay.ModelCalls != 4 {
		t.Fatalf("first run_task: %d model calls, %+v", calls, r.Replay)
	}
	if r, calls := runTask("ann"); calls != 0 || r.Answer != "plan: Gold" || r.Replay.Steps != 4 {
		t.Fatalf("second run_task: %d model calls, %+v", calls, r.Replay)
	}
	if _, calls := runTask("bob"); calls != 0 {
		t.Fatalf("with vars user=bob: %d model calls", calls)
	}
	if logins, _ := members.State(); len(logins) != 3 || logins[2] != "bob" {
		t.Fatalf("sign-ins %v", logins)
	}
	res, out := call(t, cs, "run_task", map[string]any{"url": site.URL + "/", "task": signin.Task, "vars": map[string]string{"user": "ann", "plan": "x"}})
	if !res.IsError || !strings.Contains(out, "the variable plan is not used") {
		t.Fatalf("an unused var: %s", out)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
