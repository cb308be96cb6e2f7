package gemini_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/llm/gemini"
)

func newClient(t *testing.T, base string, edit func(*gemini.Config)) *gemini.Client {
	t.Helper()
	cfg := gemini.Config{BaseURL: base, APIKey: testKey, Model: "gemini-test", Inactivity: 5 * time.Second,
		RetryBaseDelay: 10 * time.Millisecond, MaxRetryDelay: 50 * time.Millisecond}
	if edit != nil {
		edit(&cfg)
	}
	c, err := gemini.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

var simpleRequest = contract.Request{Messages: []contract.Message{{Role: contract.RoleUser, Content: "hi"}}}

// signature is a thoughtSignature as the API sends it (base64).
const signature = "c2lnbmF0dXJlLTE="

var png1x1 = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")

// TestCompleteAndSendBack: a streamed reply's thought, text, calls (one
// with an id, one without) and usage; the next request sends the model
// turn back whole (thought and signature), answers each call by name and
// id, a tool's image as inline data of its functionResponse, and a
// user's image as an inlineData part.
func TestCompleteAndSendBack(t *testing.T) {
	t.Parallel()
	first := reply{thought: "The form is there.", signature: signature, text: "Opening it.",
		calls: []call{{id: "fc-1", name: "click", args: map[string]any{"ref": "e3"}}, {name: "screenshot", args: map[string]any{}}}}
	srv := startAPI(t, func(_ *apiRequest, n int) turn {
		if n == 0 {
			return turn{chunks: first.chunks()}
		}
		return turn{chunks: reply{text: "Done."}.chunks()}
	})
	c := newClient(t, srv.baseURL(), func(c *gemini.Config) { c.ThinkingLevel = "low" })
	tools := []contract.ToolDef{{Name: "click", Description: "Click.", Parameters: json.RawMessage(`{"type":"object","properties":{"ref":{"type":"string"}}}`)},
		{Name: "screenshot", Description: "Look.", Parameters: json.RawMessage(`{"type":"object","properties":{}}`)}}
	msgs := []contract.Message{{Role: contract.RoleSystem, Content: "You operate a browser."},
		{Role: contract.RoleUser, Content: "Open the form.", Images: [][]byte{png1x1}}}
	got, err := c.Complete(context.Background(), contract.Request{Messages: msgs, Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	if got.Content != "Opening it." || got.Reasoning != "The form is there." || len(got.ToolCalls) != 2 {
		t.Fatalf("reply %+v", got)
	}
	if tc := got.ToolCalls[0]; tc.ID != "fc-1" || tc.Name != "click" || tc.Arguments != `{"ref":"e3"}` || tc.Toolset != "" {
		t.Errorf("first call %+v", tc)
	}
	if tc := got.ToolCalls[1]; tc.ID == "" || tc.ID == "fc-1" || tc.Name != "screenshot" {
		t.Errorf("second call %+v: want an id of its own", tc)
	}
	want := contract.Usage{PromptTokens: 1200, CompletionTokens: 80, TotalTokens: 1280, CachedTokens: 1024}
	if got.Usage != want {
		t.Errorf("usage %+v, want %+v", got.Usage, want)
	}
	msgs = append(msgs, contract.Message{Role: contract.RoleAssistant, Content: got.Content, ToolCalls: got.ToolCalls},
		contract.Message{Role: contract.RoleTool, ToolCallID: got.ToolCalls[0].ID, Content: "clicked"},
		contract.Message{Role: contract.RoleTool, ToolCallID: got.ToolCalls[1].ID, Content: "the page", Images: [][]byte{png1x1}},
		contract.Message{Role: contract.RoleUser, Content: "the page now"})
	if _, err := c.Complete(context.Background(), contract.Request{Messages: msgs, Tools: tools}); err != nil {
		t.Fatal(err)
	}
	reqs := srv.requests()
	r0, r1 := reqs[0], reqs[1]
	if tc, _ := r0.GenerationConfig["thinkingConfig"].(map[string]any); tc["includeThoughts"] != true || tc["thinkingLevel"] != "LOW" {
		t.Errorf("thinkingConfig %v", r0.GenerationConfig["thinkingConfig"])
	}
	if tools := jsonOf(r0.Tools); !strings.Contains(tools, `{"description":"Click.","name":"click","parametersJsonSchema":{"properties":{"ref":{"type":"string"}},"type":"object"}}`) {
		t.Errorf("tools %s: want the functions declared with their JSON Schema", tools)
	}
	if r0.SystemInstruction == nil || r0.SystemInstruction.Parts[0]["text"] != "You operate a browser." {
		t.Errorf("systemInstruction %+v", r0.SystemInstruction)
	}
	if len(r0.partsOf("inlineData")) != 1 {
		t.Errorf("the user's image is not an inlineData part: %s", r0.Raw)
	}
	if len(r1.Contents) != 3 || r1.Contents[1].Role != "model" || r1.Contents[2].Role != "user" {
		t.Fatalf("contents %s", r1.Raw)
	}
	model := r1.Contents[1].Parts
	if len(model) != 4 || model[0]["thought"] != true || model[0]["text"] != "The form is there." || model[1]["text"] != "Opening it." ||
		model[2]["thoughtSignature"] != signature {
		t.Errorf("the model turn is not sent back whole with its signature: %v", model)
	}
	frs := r1.partsOf("functionResponse")
	if len(frs) != 2 {
		t.Fatalf("function responses %v", frs)
	}
	fr0, fr1 := frs[0]["functionResponse"].(map[string]any), frs[1]["functionResponse"].(map[string]any)
	if fr0["name"] != "click" || fr0["id"] != "fc-1" || fr0["response"].(map[string]any)["output"] != "clicked" {
		t.Errorf("first response %v", fr0)
	}
	if _, has := fr1["id"]; has || fr1["name"] != "screenshot" {
		t.Errorf("second response %v: an id the API did not give was sent", fr1)
	}
	if parts, _ := fr1["parts"].([]any); len(parts) != 1 || !strings.Contains(jsonOf(parts), `"mimeType":"image/png"`) {
		t.Errorf("the tool's image is not inline data of its response: %v", fr1)
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestFailures: transient failures are sent again (Retry-After honoured),
// a refused key stops at once with llm.ErrUnauthorized, and neither the
// errors nor the log name the key.
func TestFailures(t *testing.T) {
	t.Parallel()
	ok := turn{chunks: reply{text: "Hello."}.chunks()}
	cases := []struct {
		name  string
		turns func(n int) turn
		kind  llm.Kind // "" for success
		says  string
		reqs  int
	}{
		{name: "500-then-ok", reqs: 2, turns: func(n int) turn {
			if n == 0 {
				return turn{status: 500, body: `{"error":{"code":500,"message":"An internal error has occurred.","status":"INTERNAL"}}`}
			}
			return ok
		}},
		{name: "429-retry-after-then-ok", reqs: 2, turns: func(n int) turn {
			if n == 0 {
				return turn{status: 429, header: map[string]string{"Retry-After": "0"},
					body: `{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}`}
			}
			return ok
		}},
		{name: "truncated-then-ok", reqs: 2, turns: func(n int) turn {
			if n == 0 {
				return turn{chunks: reply{text: "Hello."}.chunks()[:1]}
			}
			return ok
		}},
		{name: "cut-mid-stream-then-ok", reqs: 2, turns: func(n int) turn {
			if n == 0 {
				return turn{chunks: reply{text: "Hello."}.chunks()[:1], cut: true}
			}
			return ok
		}},
		{name: "error-in-stream-then-ok", reqs: 2, turns: func(n int) turn {
			if n == 0 {
				return turn{chunks: []map[string]any{{"error": map[string]any{"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}}}
			}
			return ok
		}},
		{name: "503-gives-up", reqs: 4, kind: llm.KindProviderDown, says: "overloaded", turns: func(int) turn {
			return turn{status: 503, body: `{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}`}
		}},
		{name: "context-at-once", reqs: 1, kind: llm.KindContextTooLarge, says: "exceeds", turns: func(int) turn {
			return turn{status: 400, body: `{"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}`}
		}},
		{name: "safety", reqs: 1, kind: llm.KindRefused, says: "SAFETY", turns: func(int) turn {
			return turn{chunks: reply{finish: "SAFETY"}.chunks()}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := startAPI(t, func(_ *apiRequest, n int) turn { return tc.turns(n) })
			got, err := newClient(t, srv.baseURL(), nil).Complete(context.Background(), simpleRequest)
			if n := len(srv.requests()); n != tc.reqs {
				t.Errorf("%d requests, want %d", n, tc.reqs)
			}
			if tc.kind == "" {
				if err != nil || got.Content != "Hello." {
					t.Fatalf("got %+v, %v", got, err)
				}
				return
			}
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != tc.kind || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("error %v, want kind %s saying %q", err, tc.kind, tc.says)
			}
		})
	}
}

// TestBadKey: the API's 400 API_KEY_INVALID is llm.ErrUnauthorized at
// once, from Complete and Ping; the key is in a header only, never in a
// URL, an error or the log, retries included.
func TestBadKey(t *testing.T) {
	t.Parallel()
	srv := startAPI(t, func(_ *apiRequest, n int) turn {
		if n == 0 {
			return turn{status: 500, body: `{"error":{"code":500,"message":"Internal error.","status":"INTERNAL"}}`}
		}
		return turn{chunks: reply{text: "Hello."}.chunks()}
	})
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	good := newClient(t, srv.baseURL(), func(c *gemini.Config) { c.Logger = logger })
	if _, err := good.Complete(context.Background(), simpleRequest); err != nil {
		t.Fatal(err)
	}
	const wrong = "AIzaSy-wrong-key-9876543210"
	bad := newClient(t, srv.baseURL(), func(c *gemini.Config) { c.APIKey, c.Logger = wrong, logger })
	_, err := bad.Complete(context.Background(), simpleRequest)
	var e *llm.Error
	if !errors.Is(err, llm.ErrUnauthorized) || !errors.As(err, &e) || e.Attempts != 1 || e.Code != "API_KEY_INVALID" {
		t.Fatalf("error %v, want llm.ErrUnauthorized after one attempt", err)
	}
	perr := bad.Ping(context.Background())
	if !errors.Is(perr, llm.ErrUnauthorized) {
		t.Errorf("ping with a wrong key: %v", perr)
	}
	if !strings.Contains(logs.String(), "retrying") {
		t.Errorf("the retry was not logged: %s", logs.String())
	}
	for _, s := range append(srv.seenURLs(), err.Error(), perr.Error(), logs.String()) {
		if strings.Contains(s, testKey) || strings.Contains(s, wrong) || strings.Contains(s, "key=") {
			t.Errorf("a key shows in %q", s)
		}
	}
}

func TestUnreachableAndSilent(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	_, err = newClient(t, "http://"+addr, func(c *gemini.Config) { c.MaxRetries = -1 }).Complete(context.Background(), simpleRequest)
	if !errors.Is(err, llm.ErrUnreachable) {
		t.Fatalf("error %v, want llm.ErrUnreachable", err)
	}
	srv := startAPI(t, func(*apiRequest, int) turn {
		return turn{chunks: reply{text: "Hel"}.chunks()[:1], stall: true}
	})
	start := time.Now()
	_, err = newClient(t, srv.baseURL(), func(c *gemini.Config) { c.Inactivity, c.MaxRetries = 300*time.Millisecond, -1 }).
		Complete(context.Background(), simpleRequest)
	if err == nil || !strings.Contains(err.Error(), "went silent") || time.Since(start) > 5*time.Second {
		t.Fatalf("error %v after %s, want the inactivity window's", err, time.Since(start))
	}
}

func TestConfigErrors(t *testing.T) {
	t.Parallel()
	_, err := gemini.New(gemini.Config{BaseURL: "localhost:8080?key=x", Inactivity: -1, RetryBaseDelay: -1,
		HTTPClient: &http.Client{Timeout: time.Minute}})
	if !errors.Is(err, llm.ErrConfig) {
		t.Fatalf("error %v, want llm.ErrConfig", err)
	}
	for _, want := range []string{"no model", "no API key", gemini.KeyEnv, "not an absolute",
		"Inactivity is -1ns: it must not be negative (0 disables", "RetryBaseDelay is -1ns: it must not be negative (0 means 500ms)",
		"HTTPClient.Timeout is 1m0s: it must be 0"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	for base, want := range map[string]string{"": gemini.DefaultBaseURL, "http://127.0.0.1:9/": "http://127.0.0.1:9/v1beta",
		"https://proxy.example/gemini/v1alpha": "https://proxy.example/gemini/v1alpha"} {
		c, err := gemini.New(gemini.Config{BaseURL: base, APIKey: testKey, Model: "m"})
		if err != nil || c.BaseURL() != want {
			t.Errorf("base %q: %v, %v; want %s", base, c, err, want)
		}
	}
}

// TestPing: the preflight knows the Gemini API, a model it lacks and a
// server without it, without a model call.
func TestPing(t *testing.T) {
	t.Parallel()
	srv := startAPI(t, func(*apiRequest, int) turn {
		t.Error("Ping made a model call")
		return turn{status: 500}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := newClient(t, srv.baseURL(), nil).Ping(ctx); err != nil {
		t.Errorf("ping of a Gemini API: %v", err)
	}
	err := newClient(t, srv.baseURL(), func(c *gemini.Config) { c.Model = "no-such-model" }).Ping(ctx)
	if err == nil || !strings.Contains(err.Error(), `does not know the model "no-such-model"`) {
		t.Errorf("ping for an unknown model: %v", err)
	}
	err = newClient(t, srv.URL+"/v1", nil).Ping(ctx) // an OpenAI-compatible root: no models/... there
	if !errors.Is(err, gemini.ErrNotGeminiEndpoint) || !strings.Contains(err.Error(), "--api chat") {
		t.Errorf("ping of a server without the API: %v", err)
	}
	if got := len(srv.requests()); got != 0 {
		t.Errorf("%d requests reached the model", got)
	}
}
