package modelserver

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func postGemini(t *testing.T, srv *Server, method, key, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srv.GeminiBaseURL()+"/models/reference:"+method, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-goog-api-key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = resp.Body.Close() })
	return resp
}

// TestGeminiStream posts a GenerateContentRequest and reads the stream:
// the responder sees the conversation as chat messages (each function
// response a tool message answering its call, by id or by name, each
// text part a user message) with the functions declared and the
// computerUse tool noted, and its turn comes back as
// GenerateContentResponse events, the last with STOP and the usage.
func TestGeminiStream(t *testing.T) {
	var seen *ChatRequest
	srv, err := Start(ResponderFunc(func(req *ChatRequest) Turn {
		seen = req
		return Turn{Text: "next", ToolCalls: []Call{ToolCall("click_at", map[string]any{"x": 500, "y": 250})}}
	}), WithAPIKey("AIza-key"))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	body := `{"systemInstruction":{"parts":[{"text":"sys"}]},
	"tools":[{"computerUse":{"environment":"ENVIRONMENT_BROWSER"}},{"functionDeclarations":[{"name":"done","parametersJsonSchema":{"type":"object"}}]}],
	"contents":[{"role":"user","parts":[{"text":"Task"}]},
	 {"role":"model","parts":[{"text":"go","thought":true},{"functionCall":{"name":"navigate","args":{"url":"x"}},"thoughtSignature":"c2ln"},{"functionCall":{"id":"c2","name":"wait_5_seconds","args":{}}}]},
	 {"role":"user","parts":[{"functionResponse":{"id":"c2","name":"wait_5_seconds","response":{"output":"waited"}}},
	  {"functionResponse":{"name":"navigate","response":{"url":"http://x/"},"parts":[{"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgo="}}]}},
	  {"text":"Note"},{"text":"Observation 2"},{"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgo="}}]}]}`
	resp := postGemini(t, srv, "streamGenerateContent?alt=sse", "AIza-key", body)
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/event-stream" {
		t.Fatalf("status %d, content type %q", resp.StatusCode, ct)
	}
	var chunks []map[string]any
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "data: "); ok {
			var c map[string]any
			if err := json.Unmarshal([]byte(data), &c); err != nil {
				t.Fatalf("event %q: %v", data, err)
			}
			chunks = append(chunks, c)
		}
	}
	last, _ := json.Marshal(chunks[len(chunks)-1])
	for _, w := range []string{`"finishReason":"STOP"`, `"functionCall":{"args":{"x":500,"y":250},"id":"call_`, `"promptTokenCount":`, `"candidatesTokenCount":`} {
		if !strings.Contains(string(last), w) {
			t.Errorf("last chunk %s lacks %s", last, w)
		}
	}
	if first, _ := json.Marshal(chunks[0]); !strings.Contains(string(first), `"text":"next"`) {
		t.Errorf("first chunk %s", first)
	}
	if n := len(seen.Tools); seen.Toolset != ToolsetComputer || n != len(computerExpressed)+1 || seen.Tools[n-1].Name != "done" || !seen.Stream {
		t.Errorf("toolset %q, tools %+v", seen.Toolset, seen.Tools)
	}
	var got []string
	for _, m := range seen.Messages {
		calls := ""
		for _, c := range m.ToolCalls {
			calls += " " + c.ID + "=" + c.Name
		}
		got = append(got, m.Role+":"+m.ToolCallID+":"+m.Content+calls+":"+string(rune('0'+m.Images)))
	}
	want := []string{"system::sys:0", "user::Task:0", "assistant:: gemini-1-1=navigate c2=wait_5_seconds:0",
		"tool:c2:waited:0", `tool:gemini-1-1:{"url":"http://x/"}:1`, "user::Note:0", "user::Observation 2:1"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("messages\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestGeminiFaults: a key refused, a rate limit and a server error are
// answered in Google's error shape, with Retry-After for the limit; an
// empty request (a client's preflight) is 400, not a reply.
func TestGeminiFaults(t *testing.T) {
	srv, err := Start(Script(Turn{Fault: RateLimited, RetryAfter: 2 * time.Second}, Turn{Fault: ServerError, Status: 503, Text: "overloaded"},
		Turn{Fault: Unauthorized}), WithAPIKey("AIza-key"))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	body := `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`
	cases := []struct {
		key, body  string
		status     int
		wants      []string
		retryAfter string
		method     string
	}{
		{"wrong", body, 400, []string{`"status":"INVALID_ARGUMENT"`, `"reason":"API_KEY_INVALID"`}, "", "streamGenerateContent?alt=sse"},
		{"AIza-key", `{}`, 400, []string{"contents is not specified"}, "", "generateContent"},
		{"AIza-key", body, 429, []string{`"status":"RESOURCE_EXHAUSTED"`, `"code":429`}, "2", "streamGenerateContent?alt=sse"},
		{"AIza-key", body, 503, []string{`"status":"UNAVAILABLE"`, "overloaded"}, "", "streamGenerateContent?alt=sse"},
		{"AIza-key", body, 400, []string{`"reason":"API_KEY_INVALID"`}, "", "generateContent"},
	}
	for i, c := range cases {
		resp := postGemini(t, srv, c.method, c.key, c.body)
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != c.status || resp.Header.Get("Retry-After") != c.retryAfter {
			t.Errorf("case %d: %d (Retry-After %q) %s", i, resp.StatusCode, resp.Header.Get("Retry-After"), b)
		}
		for _, w := range c.wants {
			if !strings.Contains(string(b), w) {
				t.Errorf("case %d: %s lacks %s", i, b, w)
			}
		}
	}
}
