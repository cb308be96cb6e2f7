package anthropic_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// messagesServer speaks the Messages API as Anthropic's reference
// documents it: POST /v1/messages with a JSON body (model, max_tokens,
// system, messages of content blocks, tools with input_schema,
// stream:true), answered with server-sent events, each an "event:" line
// naming its type and a "data:" line holding its JSON.
type messagesServer struct {
	*httptest.Server
	mu      sync.Mutex
	reqs    []recorded
	respond func(w http.ResponseWriter, r *http.Request, body map[string]any, n int)
}

type recorded struct {
	header http.Header
	body   map[string]any
}

func newMessagesServer(t *testing.T, respond func(w http.ResponseWriter, r *http.Request, body map[string]any, n int)) *messagesServer {
	t.Helper()
	s := newExampleServer(respond)
	t.Cleanup(s.Close)
	return s
}

// newExampleServer starts a messagesServer the caller closes.
func newExampleServer(respond func(w http.ResponseWriter, r *http.Request, body map[string]any, n int)) *messagesServer {
	s := &messagesServer{respond: respond}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

func (s *messagesServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		http.NotFound(w, r)
		return
	}
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		apiError(w, http.StatusBadRequest, "invalid_request_error", "body is not JSON")
		return
	}
	s.mu.Lock()
	n := len(s.reqs)
	s.reqs = append(s.reqs, recorded{header: r.Header.Clone(), body: body})
	s.mu.Unlock()
	if r.Header.Get("x-api-key") == "" {
		apiError(w, http.StatusUnauthorized, "authentication_error", "x-api-key header is required")
		return
	}
	if _, ok := body["max_tokens"]; !ok {
		apiError(w, http.StatusBadRequest, "invalid_request_error", "max_tokens: Field required")
		return
	}
	s.respond(w, r, body, n)
}

func (s *messagesServer) requests() []recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]recorded(nil), s.reqs...)
}

// apiError answers as the API does: {"type":"error","error":{...}}.
func apiError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"type":"error","error":{"type":%q,"message":%q}}`, typ, msg)
}

// sse writes the head of a stream and returns a function that sends one
// event.
func sse(w http.ResponseWriter) func(event string, data any) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	return func(event string, data any) {
		raw, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, raw)
		if f != nil {
			f.Flush()
		}
	}
}

// call is a tool call the scripted model makes; a name "computer:left_click"
// is the member left_click of the computer toolset.
type call struct{ name, input string }

// streamReply sends a whole reply as the API streams it: message_start,
// a ping, an optional thinking block with its signature, a text block,
// each call as a tool_use block whose input comes in two input_json_delta
// pieces, message_delta with the stop reason and usage, message_stop.
func streamReply(w http.ResponseWriter, thinking, text string, calls []call) {
	send := sse(w)
	send("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test", "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 100, "output_tokens": 1, "cache_read_input_tokens": 80, "cache_creation_input_tokens": 20}}})
	send("ping", map[string]any{"type": "ping"})
	i := 0
	if thinking != "" {
		send("content_block_start", map[string]any{"type": "content_block_start", "index": i,
			"content_block": map[string]any{"type": "thinking", "thinking": "", "signature": ""}})
		send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
			"delta": map[string]any{"type": "thinking_delta", "thinking": thinking}})
		send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
			"delta": map[string]any{"type": "signature_delta", "signature": "sig-" + fmt.Sprint(len(thinking))}})
		send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
		i++
	}
	if text != "" {
		send("content_block_start", map[string]any{"type": "content_block_start", "index": i,
			"content_block": map[string]any{"type": "text", "text": ""}})
		half := len(text) / 2
		for _, piece := range []string{text[:half], text[half:]} {
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "text_delta", "text": piece}})
		}
		send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
		i++
	}
	for k, c := range calls {
		block := map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d_%d", i, k), "name": c.name, "input": map[string]any{}}
		if set, member, ok := strings.Cut(c.name, ":"); ok { // a member of a toolset
			block["name"], block["toolset_name"] = member, set
		}
		send("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": block})
		half := len(c.input) / 2
		for _, piece := range []string{c.input[:half], c.input[half:]} {
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": piece}})
		}
		send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
		i++
	}
	stop := "end_turn"
	if len(calls) > 0 {
		stop = "tool_use"
	}
	send("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 42}})
	send("message_stop", map[string]any{"type": "message_stop"})
}

// lastUserText is the text of the last user turn: its text blocks and
// the text of its tool results.
func lastUserText(body map[string]any) string {
	msgs, _ := body["messages"].([]any)
	if len(msgs) == 0 {
		return ""
	}
	m, _ := msgs[len(msgs)-1].(map[string]any)
	var b strings.Builder
	var walk func(blocks []any)
	walk = func(blocks []any) {
		for _, x := range blocks {
			blk, _ := x.(map[string]any)
			if t, ok := blk["text"].(string); ok {
				b.WriteString(t + "\n")
			}
			if inner, ok := blk["content"].([]any); ok {
				walk(inner)
			}
		}
	}
	if s, ok := m["content"].(string); ok {
		return s
	}
	blocks, _ := m["content"].([]any)
	walk(blocks)
	return b.String()
}
