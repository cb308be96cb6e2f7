package responses_test

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

// apiServer speaks the Responses API as OpenAI's reference documents it:
// POST /v1/responses with a JSON body (model, instructions, input items,
// tools of type "function", stream:true), answered with server-sent
// events, each an "event:" line naming its type and a "data:" line with
// the event's JSON. It checks the request's shape and records it.
type apiServer struct {
	*httptest.Server
	t       *testing.T
	respond func(req *apiRequest, n int) turn
	mu      sync.Mutex
	reqs    []*apiRequest
}

// apiRequest is a request as the server read it.
type apiRequest struct {
	Model          string           `json:"model"`
	Instructions   string           `json:"instructions"`
	Input          []map[string]any `json:"input"`
	Tools          []map[string]any `json:"tools"`
	Stream         bool             `json:"stream"`
	Store          *bool            `json:"store"`
	Include        []string         `json:"include"`
	PromptCacheKey string           `json:"prompt_cache_key"`
	Temperature    *float64         `json:"temperature"`
	Auth           string           `json:"-"`
	Raw            string           `json:"-"`
}

// turn is one answer: events, or a failure status with its body and
// headers, or a stall after the given events.
type turn struct {
	events []event
	status int
	body   string
	header map[string]string
	stall  bool
}

type event struct {
	typ  string
	data map[string]any
}

func startAPI(t *testing.T, respond func(req *apiRequest, n int) turn) *apiServer {
	t.Helper()
	s := &apiServer{t: t, respond: respond}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *apiServer) baseURL() string { return s.URL + "/v1" }

func (s *apiServer) requests() []*apiRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*apiRequest(nil), s.reqs...)
}

func (s *apiServer) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	req := &apiRequest{Auth: r.Header.Get("Authorization"), Raw: string(raw)}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/responses" {
		http.Error(w, `{"error":{"message":"not found","type":"invalid_request_error"}}`, http.StatusNotFound)
		return
	}
	if req.Auth == "" {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"error":{"message":"You didn't provide an API key.","type":"invalid_request_error","code":null}}`)
		return
	}
	if err := json.Unmarshal(raw, req); err != nil {
		badRequest(w, "body is not JSON: "+err.Error())
		return
	}
	if req.Model == "" { // as the API answers a request without its model (the client's Ping sends one)
		badRequest(w, "Missing required parameter: 'model'.")
		return
	}
	if msg := checkRequest(req); msg != "" {
		s.t.Errorf("request not in the documented shape: %s: %s", msg, raw)
		badRequest(w, msg)
		return
	}
	s.mu.Lock()
	n := len(s.reqs)
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()
	tn := s.respond(req, n)
	for k, v := range tn.header {
		w.Header().Set(k, v)
	}
	if tn.status != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(tn.status)
		_, _ = io.WriteString(w, tn.body)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	flusher, _ := w.(http.Flusher)
	for i, ev := range tn.events {
		data := map[string]any{"type": ev.typ, "sequence_number": i}
		for k, v := range ev.data {
			data[k] = v
		}
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.typ, b)
		flusher.Flush()
	}
	if tn.stall {
		<-r.Context().Done() // silent until the client hangs up
	}
}

func badRequest(w http.ResponseWriter, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error", "param": nil, "code": nil}})
	_, _ = w.Write(b)
}

// checkRequest checks what the reference requires of the fields used.
func checkRequest(req *apiRequest) string {
	switch {
	case req.Model == "":
		return "model missing"
	case !req.Stream:
		return "stream is not true"
	}
	for _, tool := range req.Tools {
		if tool["type"] == "computer" && len(tool) == 1 {
			continue // the computer tool: {"type":"computer"}, nothing else
		}
		if tool["type"] != "function" || tool["name"] == "" || tool["parameters"] == nil {
			return fmt.Sprintf("tool %v is not {type:function, name, parameters}", tool)
		}
	}
	for _, item := range req.Input {
		if msg := checkItem(item); msg != "" {
			return msg
		}
	}
	return ""
}

func checkItem(item map[string]any) string {
	typ, _ := item["type"].(string)
	switch typ {
	case "", "message":
		switch item["role"] {
		case "user", "assistant", "system", "developer":
		default:
			return fmt.Sprintf("message of role %v", item["role"])
		}
		if _, ok := item["content"]; !ok {
			return "message without content"
		}
	case "function_call":
		if item["call_id"] == "" || item["name"] == "" || item["arguments"] == nil {
			return fmt.Sprintf("function_call %v lacks call_id, name or arguments", item)
		}
	case "function_call_output":
		if item["call_id"] == "" || item["output"] == nil {
			return fmt.Sprintf("function_call_output %v lacks call_id or output", item)
		}
	case "computer_call":
		if item["call_id"] == "" || item["actions"] == nil && item["action"] == nil || item["pending_safety_checks"] == nil {
			return fmt.Sprintf("computer_call %v lacks call_id, actions or pending_safety_checks", item)
		}
	case "computer_call_output":
		out, _ := item["output"].(map[string]any)
		if item["call_id"] == "" || out["type"] != "computer_screenshot" || !strings.HasPrefix(fmt.Sprint(out["image_url"]), "data:image/png;base64,") {
			return fmt.Sprintf("computer_call_output %v lacks call_id or a computer_screenshot with an image_url", item)
		}
	case "reasoning":
		if item["id"] == "" || item["summary"] == nil {
			return fmt.Sprintf("reasoning %v lacks id or summary", item)
		}
	default:
		return "input item of unknown type " + typ
	}
	return ""
}

// call is a function call a scripted reply makes.
type call struct{ name, args string }

// reply is a scripted model reply.
type reply struct {
	reasoning, encrypted string
	text                 string
	calls                []call
	// computer is a computer_call's actions and pending safety checks.
	computer *computerCall
}

type computerCall struct {
	actions []map[string]any
	checks  []map[string]any
}

// events renders a reply as the documented sequence of events.
func (rp reply) events(n int) []event {
	respID := fmt.Sprintf("resp_%d", n)
	evs := []event{{"response.created", map[string]any{"response": response(respID, "in_progress", nil, nil)}}}
	var output []any
	add := func(item map[string]any, middle ...event) {
		idx := len(output)
		started := map[string]any{}
		for k, v := range item {
			started[k] = v
		}
		started["status"] = "in_progress"
		evs = append(evs, event{"response.output_item.added", map[string]any{"output_index": idx, "item": started}})
		for _, m := range middle {
			m.data["output_index"] = idx
			m.data["item_id"] = item["id"]
			evs = append(evs, m)
		}
		evs = append(evs, event{"response.output_item.done", map[string]any{"output_index": idx, "item": item}})
		output = append(output, item)
	}
	if rp.reasoning != "" {
		id := fmt.Sprintf("rs_%d", n)
		add(map[string]any{"id": id, "type": "reasoning", "encrypted_content": rp.encrypted,
			"summary": []any{map[string]any{"type": "summary_text", "text": rp.reasoning}}},
			event{"response.reasoning_summary_text.delta", map[string]any{"summary_index": 0, "delta": rp.reasoning}},
			event{"response.reasoning_summary_text.done", map[string]any{"summary_index": 0, "text": rp.reasoning}})
	}
	if rp.text != "" {
		half := len(rp.text) / 2
		add(map[string]any{"id": fmt.Sprintf("msg_%d", n), "type": "message", "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": rp.text, "annotations": []any{}}}},
			event{"response.output_text.delta", map[string]any{"content_index": 0, "delta": rp.text[:half], "logprobs": []any{}}},
			event{"response.output_text.delta", map[string]any{"content_index": 0, "delta": rp.text[half:], "logprobs": []any{}}},
			event{"response.output_text.done", map[string]any{"content_index": 0, "text": rp.text, "logprobs": []any{}}})
	}
	for i, c := range rp.calls {
		cut := len(c.args) / 3
		add(map[string]any{"id": fmt.Sprintf("fc_%d_%d", n, i), "type": "function_call", "status": "completed",
			"call_id": fmt.Sprintf("call_%d_%d", n, i), "name": c.name, "arguments": c.args},
			event{"response.function_call_arguments.delta", map[string]any{"delta": c.args[:cut]}},
			event{"response.function_call_arguments.delta", map[string]any{"delta": c.args[cut:]}},
			event{"response.function_call_arguments.done", map[string]any{"name": c.name, "arguments": c.args}})
	}
	if cc := rp.computer; cc != nil {
		checks := cc.checks
		if checks == nil {
			checks = []map[string]any{}
		}
		add(map[string]any{"id": fmt.Sprintf("cu_%d", n), "type": "computer_call", "status": "completed",
			"call_id": fmt.Sprintf("call_cu_%d", n), "actions": cc.actions, "pending_safety_checks": checks})
	}
	usage := map[string]any{"input_tokens": 1200, "input_tokens_details": map[string]any{"cached_tokens": 1024},
		"output_tokens": 80, "output_tokens_details": map[string]any{"reasoning_tokens": 30}, "total_tokens": 1280}
	return append(evs, event{"response.completed", map[string]any{"response": response(respID, "completed", output, usage)}})
}

// started is the in-progress item of an output_item.added event: without
// the arguments of a call.
func response(id, status string, output []any, usage any) map[string]any {
	if output == nil {
		output = []any{}
	}
	return map[string]any{"id": id, "object": "response", "created_at": 1767225600, "status": status,
		"model": "gpt-5.4", "output": output, "usage": usage, "error": nil, "incomplete_details": nil}
}

// inputOf returns the request's input items of a type.
func (r *apiRequest) inputOf(typ string) []map[string]any {
	var out []map[string]any
	for _, item := range r.Input {
		t, _ := item["type"].(string)
		if t == typ || (typ == "message" && t == "") {
			out = append(out, item)
		}
	}
	return out
}

// lastUserText is the text of the last user message.
func (r *apiRequest) lastUserText() string {
	msgs := r.inputOf("message")
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i]["role"] != "user" {
			continue
		}
		switch c := msgs[i]["content"].(type) {
		case string:
			return c
		case []any:
			var b strings.Builder
			for _, p := range c {
				if m, ok := p.(map[string]any); ok && m["type"] == "input_text" {
					b.WriteString(m["text"].(string))
				}
			}
			return b.String()
		}
	}
	return ""
}
