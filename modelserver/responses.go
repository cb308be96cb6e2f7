package modelserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// OpenAI's Responses API (POST /v1/responses, streamed, stateless: the
// whole input each time). A request is read into a ChatRequest as
// /v1/messages is: instructions a system message, each input message one
// of its role, function_call items an assistant's calls,
// function_call_output items tool messages. The Turn is streamed as the API reference
// documents: response.created, an output item per text and call
// (response.output_item.added, the deltas, response.output_item.done),
// response.completed with the usage. A request that declares the computer
// tool gets Toolset "computer": its computer_call items are read as calls,
// a computer_call_output with the user message after it ("The computer
// call ID did: ...") as their tool message, and a Turn's gestures are sent
// as one computer_call (computerActions).

type respItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Output    json.RawMessage `json:"output"`
	Actions   json.RawMessage `json:"actions"` // a computer_call's
}

// respText is content or output: a string, or parts whose text is joined.
func respText(raw json.RawMessage) (string, int) {
	var s string
	if len(raw) == 0 || json.Unmarshal(raw, &s) == nil {
		return s, 0
	}
	var parts []struct{ Type, Text string }
	_ = json.Unmarshal(raw, &parts)
	images := 0
	for _, p := range parts {
		switch p.Type {
		case "input_text", "output_text", "text":
			s += p.Text
		case "input_image":
			images++
		}
	}
	return s, images
}

func decodeResponsesRequest(body []byte) (*ChatRequest, error) {
	req := &ChatRequest{Raw: json.RawMessage(body), IncludeUsage: true}
	var w struct {
		Model        string     `json:"model"`
		Instructions string     `json:"instructions"`
		Input        []respItem `json:"input"`
		Tools        []struct {
			Type, Name, Description string
			Parameters              json.RawMessage
		} `json:"tools"`
		Stream bool `json:"stream"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return req, fmt.Errorf("request body is not a Responses API request: %w", err)
	}
	if w.Model == "" || len(w.Input) == 0 {
		return req, fmt.Errorf("model and input are required")
	}
	req.Model, req.Stream = w.Model, w.Stream
	if w.Instructions != "" {
		req.Messages = append(req.Messages, Message{Role: "system", Content: w.Instructions})
	}
	for _, it := range w.Input {
		switch it.Type {
		case "computer_call":
			it.Name, it.Arguments = ToolsetComputer, string(it.Actions)
			fallthrough
		case "function_call":
			n := len(req.Messages)
			if n == 0 || req.Messages[n-1].Role != "assistant" {
				req.Messages = append(req.Messages, Message{Role: "assistant"})
				n++
			}
			req.Messages[n-1].ToolCalls = append(req.Messages[n-1].ToolCalls, MessageCall{ID: it.CallID, Name: it.Name, Arguments: it.Arguments})
		case "function_call_output":
			text, images := respText(it.Output)
			req.Messages = append(req.Messages, Message{Role: "tool", Content: text, ToolCallID: it.CallID, Images: images})
		case "computer_call_output":
			req.Messages = append(req.Messages, Message{Role: "tool", ToolCallID: it.CallID, Images: 1})
		case "", "message":
			text, images := respText(it.Content)
			if id, did, ok := computerDid(text); ok && it.Role == "user" {
				if m := toolMessage(req, id); m != nil {
					m.Content = did
					continue
				}
			}
			role := it.Role
			if role == "developer" {
				role = "system"
			}
			req.Messages = append(req.Messages, Message{Role: role, Content: text, Images: images})
		}
	}
	for _, t := range w.Tools {
		switch t.Type {
		case "function":
			req.Tools = append(req.Tools, Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
		case "computer", "computer_use_preview":
			req.Toolset = ToolsetComputer
			for _, n := range computerExpressed {
				req.Tools = append(req.Tools, Tool{Name: n, Description: "done by the computer tool's actions at the refs' points"})
			}
		}
	}
	return req, nil
}

// computerDid reads the user message a client sends after a
// computer_call_output with what the call did: "The computer call ID
// did: TEXT".
func computerDid(text string) (id, did string, ok bool) {
	rest, ok := strings.CutPrefix(text, "The computer call ")
	if !ok {
		return "", "", false
	}
	return strings.Cut(rest, " did: ")
}

// toolMessage is the tool message of the call id, or nil.
func toolMessage(req *ChatRequest, id string) *Message {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if m := &req.Messages[i]; m.Role == "tool" && m.ToolCallID == id {
			return m
		}
	}
	return nil
}

func (s *Server) handleResponses(w http.ResponseWriter, r *http.Request) {
	if !s.enter() {
		writeError(w, http.StatusServiceUnavailable, "server_error", "", "modelserver: server is closing", 0)
		return
	}
	defer s.handlers.Done()
	body, err := io.ReadAll(r.Body)
	req, derr := decodeResponsesRequest(body)
	if err != nil {
		derr = fmt.Errorf("reading request body: %w", err)
	}
	rec := s.record(req, r.Header.Clone())
	defer rec.finish(false)
	switch {
	case !s.authorized(r):
		writeError(w, http.StatusUnauthorized, "invalid_request_error", "invalid_api_key", "invalid api key", 0)
	case derr != nil:
		writeError(w, http.StatusBadRequest, "invalid_request_error", "", "modelserver: "+derr.Error(), 0)
	default:
		t := s.responder.Respond(req)
		if t.Fault != None || t.Status >= 400 {
			writeError(w, statusOr(t.Status, http.StatusInternalServerError), "server_error", "", orDefault(t.Text, "modelserver: "+t.Fault.String()), 0)
			return
		}
		s.streamResponse(w, req, s.previous(rec), t)
	}
}

// streamResponse sends t as the Responses API streams a response.
func (s *Server) streamResponse(w http.ResponseWriter, req, prev *ChatRequest, t Turn) {
	u := estimateUsage(req, prev, t)
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	seq := 0
	send := func(event string, data map[string]any) {
		data["type"], data["sequence_number"] = event, seq
		seq++
		raw, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, raw)
		if fl != nil {
			fl.Flush()
		}
	}
	id := fmt.Sprintf("resp_%d", s.callSeq.Add(1))
	resp := map[string]any{"id": id, "object": "response", "model": req.Model, "status": "in_progress", "output": []any{}}
	send("response.created", map[string]any{"response": resp})
	var output []any
	if t.Text != "" {
		item := map[string]any{"type": "message", "id": fmt.Sprintf("msg_%d", s.callSeq.Add(1)), "role": "assistant", "status": "in_progress", "content": []any{}}
		send("response.output_item.added", map[string]any{"output_index": len(output), "item": item})
		for _, p := range split(t.Text, 64) {
			send("response.output_text.delta", map[string]any{"output_index": len(output), "item_id": item["id"], "content_index": 0, "delta": p})
		}
		item = map[string]any{"type": "message", "id": item["id"], "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": t.Text, "annotations": []any{}}}}
		send("response.output_item.done", map[string]any{"output_index": len(output), "item": item})
		output = append(output, item)
	}
	calls := t.ToolCalls
	if req.Toolset == ToolsetComputer {
		var actions []map[string]any
		actions, calls = computerActions(calls, req)
		if len(actions) > 0 {
			n := s.callSeq.Add(1)
			item := map[string]any{"type": "computer_call", "id": fmt.Sprintf("cu_%d", n), "call_id": fmt.Sprintf("call_%d", n),
				"actions": actions, "pending_safety_checks": []any{}, "status": "in_progress"}
			send("response.output_item.added", map[string]any{"output_index": len(output), "item": item})
			item["status"] = "completed"
			send("response.output_item.done", map[string]any{"output_index": len(output), "item": item})
			output = append(output, item)
		}
	}
	for _, c := range calls {
		n := s.callSeq.Add(1)
		item := map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%d", n), "call_id": fmt.Sprintf("call_%d", n),
			"name": c.Name, "arguments": "", "status": "in_progress"}
		send("response.output_item.added", map[string]any{"output_index": len(output), "item": item})
		for _, p := range split(c.Args, chunkSize(t)) {
			send("response.function_call_arguments.delta", map[string]any{"output_index": len(output), "item_id": item["id"], "delta": p})
		}
		send("response.function_call_arguments.done", map[string]any{"output_index": len(output), "item_id": item["id"], "arguments": c.Args})
		done := map[string]any{"type": "function_call", "id": item["id"], "call_id": item["call_id"], "name": c.Name, "arguments": c.Args, "status": "completed"}
		send("response.output_item.done", map[string]any{"output_index": len(output), "item": done})
		output = append(output, done)
	}
	resp["status"], resp["output"] = "completed", output
	resp["usage"] = map[string]any{"input_tokens": u.PromptTokens, "output_tokens": u.CompletionTokens, "total_tokens": u.TotalTokens,
		"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}
	send("response.completed", map[string]any{"response": resp})
}
