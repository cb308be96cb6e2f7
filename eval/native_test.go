package eval

import (
	"context"
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/modelserver"
)

// TestBuiltinThroughBrowserTool runs built-in tasks for real (Chromium,
// sites on 127.0.0.1, the reference model over HTTP) through the Messages
// API with Claude's browser use tool: the reference's steps arrive as the
// toolset's members (left_click and form_input by ref, key, scroll,
// navigate) and every task passes.
func TestBuiltinThroughBrowserTool(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	tasks := builtin(t, "shop-mugs-express-gift", "widget-slider", "widget-feed-like", "widget-autocomplete")
	cfg := testConfig(t)
	cfg.API, cfg.Native = APIAnthropic, contract.NativeBrowser
	rep := NewRunner(cfg).Run(context.Background(), TaskJobs(tasks))
	if rep.Partial || len(rep.Runs) != len(tasks) {
		t.Fatalf("partial %v, %d runs", rep.Partial, len(rep.Runs))
	}
	members := map[string]bool{}
	for _, r := range rep.Runs {
		if !r.Success {
			t.Errorf("%s: %s: %s", r.ID, r.Code, r.Message)
		}
		for _, st := range r.Steps {
			for _, a := range st.Actions {
				name, _, _ := strings.Cut(a, " ")
				members[name] = true
			}
		}
	}
	for _, m := range []string{"left_click", "form_input", "key", "scroll", "done"} {
		if !members[m] {
			t.Errorf("no %s action in the runs; actions seen: %v", m, members)
		}
	}
	for _, m := range []string{"click", "press", "select"} {
		if members[m] {
			t.Errorf("webagent's %s tool was called: the runs did not go through the browser tool", m)
		}
	}
}

// TestBuiltinThroughResponses runs built-in tasks through OpenAI's
// Responses API with webagent's own tools, against the reference server.
func TestBuiltinThroughResponses(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	tasks := builtin(t, "shop-mugs-express-gift", "widget-slider")
	cfg := testConfig(t)
	cfg.API = APIResponses
	rep := NewRunner(cfg).Run(context.Background(), TaskJobs(tasks))
	if rep.Partial || len(rep.Runs) != len(tasks) {
		t.Fatalf("partial %v, %d runs", rep.Partial, len(rep.Runs))
	}
	for _, r := range rep.Runs {
		if !r.Success {
			t.Errorf("%s: %s: %s", r.ID, r.Code, r.Message)
		}
	}
}

// TestBuiltinThroughGemini runs built-in tasks through Google's Gemini
// API with webagent's own tools, against the reference server: function
// calls and responses, the key in its header, every task passes.
func TestBuiltinThroughGemini(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	tasks := builtin(t, "shop-mugs-express-gift", "widget-slider", "widget-autocomplete")
	cfg := testConfig(t)
	cfg.API = APIGemini
	rep := NewRunner(cfg).Run(context.Background(), TaskJobs(tasks))
	if rep.Partial || len(rep.Runs) != len(tasks) {
		t.Fatalf("partial %v, %d runs", rep.Partial, len(rep.Runs))
	}
	for _, r := range rep.Runs {
		if !r.Success {
			t.Errorf("%s: %s: %s", r.ID, r.Code, r.Message)
		}
		if r.Tokens.PromptTokens == 0 || r.Tokens.CompletionTokens == 0 {
			t.Errorf("%s: tokens %+v: the usage was not read", r.ID, r.Tokens)
		}
	}
}

// TestReferenceModelAPIs refuses an API the reference model does not
// speak.
func TestReferenceModelAPIs(t *testing.T) {
	_, _, err := referenceModel(modelserver.Script(), "bedrock")
	if err == nil || !strings.Contains(err.Error(), "anthropic") {
		t.Fatalf("err = %v, want the APIs the reference model speaks", err)
	}
}
