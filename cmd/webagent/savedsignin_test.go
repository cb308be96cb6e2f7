package main

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/signin"
	"github.com/webagent/webagent/testfixture/tier"
)

// TestSavedSignIn: a run with a storage state names the saved sign-ins
// that expired as it starts and what it saved as it ends; a sign-in page
// of the state's site during the task ends it with SIGNIN_EXPIRED, which
// says the saved sign-in no longer worked.
func TestSavedSignIn(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	srv := httptest.NewServer(signin.New())
	defer srv.Close()
	llm := startModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		if strings.Contains(req.LastUser(), "Your plan:") {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": "Gold"})}}
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("fail", map[string]any{"reason": "not signed in"})}}
	}))
	dir := t.TempDir()
	state := filepath.Join(dir, "state.json")
	if err := os.WriteFile(state, []byte(`{"cookies": [
  {"name": "user", "value": "ann", "domain": "127.0.0.1", "path": "/", "expires": 1700000000, "httpOnly": true, "secure": false, "sameSite": "Lax"},
  {"name": "theme", "value": "dark", "domain": "127.0.0.1", "path": "/", "expires": -1, "httpOnly": false, "secure": false}
], "origins": []}`), 0o600); err != nil {
		t.Fatal(err)
	}
	saved := filepath.Join(dir, "saved.json")
	code, p := run(t, "run", "--json", "--url", srv.URL+"/home", "--base-url", llm.BaseURL(), "--model", "m",
		"--storage-state", state, "--save-storage-state", saved, "tell me my plan")
	var res agent.Result
	if err := json.Unmarshal(p.stdout.Bytes(), &res); err != nil {
		t.Fatalf("exit %d, %v; stderr:\n%s", code, err, p.stderr.String())
	}
	stderr := p.stderr.String()
	if code != exitFailed || res.Code != agent.CodeSignInExpired || !strings.Contains(res.Message, "the saved sign-in no longer worked: 127.0.0.1 showed a sign-in page at step 1") {
		t.Fatalf("exit %d, %s: %s; stderr:\n%s", code, res.Code, res.Message, stderr)
	}
	for _, want := range []string{
		"storage state: loaded " + state + ": 2 cookies of 127.0.0.1",
		"storage state: the saved sign-ins of 127.0.0.1 (cookie user expired 2023-11-14 22:13 UTC) have expired",
		"storage state: saved to " + saved + ": 1 cookie of 127.0.0.1",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if !strings.Contains(modelText(llm.Requests()), "the saved sign-in for 127.0.0.1 (loaded before the task) no longer worked") {
		t.Error("the model was not told the saved sign-in no longer worked")
	}
	if strings.Contains(stderr, "dark") || strings.Contains(stderr, "ann") {
		t.Errorf("a cookie's value is shown:\n%s", stderr)
	}
}
