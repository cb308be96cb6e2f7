package eval

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/cache"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/eval/report"
	"github.com/webagent/webagent/eval/suite"
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

// coordinateRuns runs tasks through cfg and checks that every one passed,
// that the actions seen include want and none of webagent's by-ref
// tools was called (the model acted at points of the screen), and that
// the runs replay from their traces.
func coordinateRuns(t *testing.T, cfg Config, tasks []*suite.Task, want []string) {
	t.Helper()
	rep := NewRunner(cfg).Run(context.Background(), TaskJobs(tasks))
	if rep.Partial || len(rep.Runs) != len(tasks) {
		t.Fatalf("partial %v, %d runs", rep.Partial, len(rep.Runs))
	}
	seen := map[string]bool{}
	for _, r := range rep.Runs {
		if !r.Success {
			t.Errorf("%s: %s: %s", r.ID, r.Code, r.Message)
		}
		for _, st := range r.Steps {
			for _, a := range st.Actions {
				name, _, _ := strings.Cut(a, " ")
				seen[name] = true
			}
		}
	}
	for _, m := range want {
		if !seen[m] {
			t.Errorf("no %s action in the runs; actions seen: %v", m, seen)
		}
	}
	for _, m := range []string{"click", "select", "form_input"} {
		if seen[m] {
			t.Errorf("%s was called: the runs did not act at points of the screen (actions seen: %v)", m, seen)
		}
	}
	// Their traces replay without a model (a click at a point on the
	// element that was under it) and pass their checks again.
	if err := rep.WriteAll(cfg.OutDir); err != nil {
		t.Fatal(err)
	}
	loaded, err := report.Load(filepath.Join(cfg.OutDir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	replayChecked(t, cfg.OutDir, tasks, loaded)
}

// Tasks for the coordinate paths: a form with text, a date, lists, a
// radio button and a checkbox (the booking), and a feed whose button is
// below the fold (the reference scrolls to bring it onto the screen).
var coordinateTasks = []string{"booking-family-of-four", "widget-feed-like"}

// TestBuiltinThroughComputerTool runs built-in tasks through the Messages
// API with Claude's computer use toolset: the reference clicks at the
// points the observations' in-view line gives, types, presses keys and
// scrolls, and every task passes.
func TestBuiltinThroughComputerTool(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	cfg := testConfig(t)
	cfg.API, cfg.Native = APIAnthropic, contract.NativeComputer
	coordinateRuns(t, cfg, builtin(t, coordinateTasks...), []string{"left_click", "type", "key", "scroll", "done"})
}

// TestBuiltinThroughResponsesComputer runs them through OpenAI's
// Responses API with its computer tool: a reply's gestures come as one
// computer_call of several actions.
func TestBuiltinThroughResponsesComputer(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	cfg := testConfig(t)
	cfg.API, cfg.Native = APIResponses, contract.NativeComputer
	coordinateRuns(t, cfg, builtin(t, coordinateTasks...), []string{"computer", "done"})
}

// TestBuiltinThroughGeminiComputer runs them through Gemini's API with its
// computer use: click_at and type_text_at on its 1000 by 1000 grid,
// key_combination, scroll_document.
func TestBuiltinThroughGeminiComputer(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	cfg := testConfig(t)
	cfg.API, cfg.Native = APIGemini, contract.NativeComputer
	coordinateRuns(t, cfg, builtin(t, coordinateTasks...), []string{"click_at", "type_text_at", "scroll_document", "done"})
}

// TestBuiltinThroughVisionMarks runs them over chat completions with
// vision marks, the reference answering in UI-TARS' text actions
// (click(start_box='(x,y)'), type(content=...), hotkey, scroll): read as
// calls of mouse at a point, type where the focus is, press and scroll.
func TestBuiltinThroughVisionMarks(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	cfg := testConfig(t)
	cfg.Options = append(cfg.Options, agent.WithVisionMarks(true))
	coordinateRuns(t, cfg, builtin(t, coordinateTasks...), []string{"mouse", "type", "press", "scroll", "done"})
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

// TestCacheWithComputerTool: a run through a computer tool is cached, and
// its next run passes again with the model answering the vendor's calls
// (their actions are at points of a screen, which a replay does not
// trust); only webagent's own calls (done) come from the recording.
func TestCacheWithComputerTool(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	cc, err := cache.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t)
	cfg.API, cfg.Native, cfg.Cache = APIAnthropic, contract.NativeComputer, cc
	tasks := builtin(t, "booking-deluxe")
	for i := range 2 {
		rep := NewRunner(cfg).Run(context.Background(), TaskJobs(tasks))
		if len(rep.Runs) != 1 || !rep.Runs[0].Success {
			t.Fatalf("run %d: %+v", i+1, rep.Runs)
		}
		r := rep.Runs[0]
		if i == 1 {
			s := r.Replay
			if s == nil || s.ModelCalls == 0 || s.Steps == 0 || len(s.Healed) == 0 || !strings.Contains(s.Healed[0].Why, "vendor's computer tool, which is not replayed") {
				t.Fatalf("second run's replay: %+v", s)
			}
		}
	}
}
