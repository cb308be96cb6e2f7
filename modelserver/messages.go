package modelserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// The Anthropic Messages API (POST /v1/messages, streamed). A request is
// read into a ChatRequest, so that every Responder answers it as it
// answers chat completions: its system text is a system message, each
// tool_result block a tool message (its text), each text block of a user
// turn a user message after them (the loop's messages, which the client
// joins into one turn), an assistant turn's text and tool_use blocks
// an assistant message. The Turn is streamed as the Messages API
// reference documents: message_start, a content block per text and call
// (content_block_start, _delta, _stop), message_delta with the stop
// reason and usage, message_stop.
//
// A request that declares Claude's browser use toolset (a tools[] entry
// of type browser_toolset_*) gets ChatRequest.Toolset "browser" and, in
// its Tools, the webagent tools the toolset can express (click, type,
// select, press, scroll, goto, back); a Turn's calls of those are sent as
// the toolset's members, by ref (see browserMembers). One that declares
// the computer use toolset (computer_toolset_*) gets Toolset "computer":
// click, type, select, press and scroll are sent as its members at the
// points the latest observation gives (see computerMembers).

// ToolsetBrowser is ChatRequest.Toolset for a Messages request that
// declares Claude's browser use toolset.
const ToolsetBrowser = "browser"

// browserExpressed are webagent's tools a browser toolset's members do.
var browserExpressed = []string{"click", "type", "select", "press", "scroll", "goto", "back"}

type msgRequest struct {
	Model    string          `json:"model"`
	System   json.RawMessage `json:"system"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Type        string          `json:"type"`
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"input_schema"`
	} `json:"tools"`
	Stream      bool     `json:"stream"`
	Temperature *float64 `json:"temperature"`
}

type msgBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
}

// blocks reads content: a string is one text block.
func blocks(raw json.RawMessage) ([]msgBlock, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []msgBlock{{Type: "text", Text: s}}, nil
	}
	var bs []msgBlock
	if err := json.Unmarshal(raw, &bs); err != nil {
		return nil, fmt.Errorf("content is neither a string nor a list of blocks: %w", err)
	}
	return bs, nil
}

// blockText joins the text blocks of content and counts its images.
func blockText(bs []msgBlock) (string, int) {
	var b strings.Builder
	images := 0
	for _, x := range bs {
		switch x.Type {
		case "text":
			b.WriteString(x.Text)
		case "image":
			images++
		}
	}
	return b.String(), images
}

func decodeMessagesRequest(body []byte) (*ChatRequest, error) {
	req := &ChatRequest{Raw: json.RawMessage(body)}
	var w msgRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return req, fmt.Errorf("request body is not a Messages API request: %w", err)
	}
	if w.Model == "" || len(w.Messages) == 0 {
		return req, fmt.Errorf("model and messages are required")
	}
	req.Model, req.Stream, req.Temperature, req.IncludeUsage = w.Model, w.Stream, w.Temperature, true
	sys, err := blocks(w.System)
	if err != nil {
		return req, fmt.Errorf("system: %w", err)
	}
	if text, _ := blockText(sys); text != "" {
		req.Messages = append(req.Messages, Message{Role: "system", Content: text})
	}
	for i, m := range w.Messages {
		bs, err := blocks(m.Content)
		if err != nil {
			return req, fmt.Errorf("message %d: %w", i, err)
		}
		req.Messages = append(req.Messages, turnMessages(m.Role, bs)...)
	}
	for _, t := range w.Tools {
		switch {
		case strings.HasPrefix(t.Type, "browser_toolset"):
			req.Toolset = ToolsetBrowser
			for _, n := range browserExpressed {
				req.Tools = append(req.Tools, Tool{Name: n, Description: "done by the browser toolset's members"})
			}
		case strings.HasPrefix(t.Type, "computer_toolset"):
			req.Toolset = ToolsetComputer
			for _, n := range computerExpressed {
				req.Tools = append(req.Tools, Tool{Name: n, Description: "done by the computer toolset's members at the refs' points"})
			}
		case t.Name != "":
			req.Tools = append(req.Tools, Tool{Name: t.Name, Description: t.Description, Parameters: t.InputSchema})
		}
	}
	return req, nil
}

// turnMessages are one turn of a Messages request as chat messages.
func turnMessages(role string, bs []msgBlock) []Message {
	if role == "assistant" {
		text, _ := blockText(bs)
		m := Message{Role: "assistant", Content: text}
		for _, b := range bs {
			if b.Type == "tool_use" {
				m.ToolCalls = append(m.ToolCalls, MessageCall{ID: b.ID, Name: b.Name, Arguments: string(b.Input)})
			}
		}
		return []Message{m}
	}
	var out, users []Message
	for _, b := range bs {
		switch b.Type {
		case "tool_result":
			inner, _ := blocks(b.Content)
			text, images := blockText(inner)
			out = append(out, Message{Role: "tool", Content: text, ToolCallID: b.ToolUseID, Images: images})
		case "text":
			users = append(users, Message{Role: "user", Content: b.Text})
		case "image":
			if len(users) == 0 {
				users = append(users, Message{Role: "user"})
			}
			users[len(users)-1].Images++
		}
	}
	return append(out, users...)
}

func (s *Server) handleMessages(w http.ResponseWriter, r *http.Request) {
	if !s.enter() {
		writeMsgError(w, http.StatusServiceUnavailable, "overloaded_error", "modelserver: server is closing")
		return
	}
	defer s.handlers.Done()
	body, err := io.ReadAll(r.Body)
	req, derr := decodeMessagesRequest(body)
	if err != nil {
		derr = fmt.Errorf("reading request body: %w", err)
	}
	rec := s.record(req, r.Header.Clone())
	defer rec.finish(false)
	switch {
	case s.opts.apiKey != "" && r.Header.Get("x-api-key") != s.opts.apiKey:
		writeMsgError(w, http.StatusUnauthorized, "authentication_error", "invalid x-api-key")
	case derr != nil:
		writeMsgError(w, http.StatusBadRequest, "invalid_request_error", "modelserver: "+derr.Error())
	default:
		t := s.responder.Respond(req)
		if t.Fault != None || t.Status >= 400 {
			writeMsgError(w, statusOr(t.Status, http.StatusInternalServerError), "api_error",
				orDefault(t.Text, "modelserver: "+t.Fault.String()))
			return
		}
		s.streamMessage(w, req, s.previous(rec), t)
	}
}

// streamMessage sends t as the Messages API streams a reply.
func (s *Server) streamMessage(w http.ResponseWriter, req, prev *ChatRequest, t Turn) {
	calls := t.ToolCalls
	switch req.Toolset {
	case ToolsetBrowser:
		calls = browserMembers(calls, req)
	case ToolsetComputer:
		calls = computerMembers(calls, req)
	}
	u := estimateUsage(req, prev, t)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	send := func(event string, data map[string]any) {
		data["type"] = event
		raw, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, raw)
		if fl != nil {
			fl.Flush()
		}
	}
	id := fmt.Sprintf("msg_%d", s.callSeq.Add(1))
	send("message_start", map[string]any{"message": map[string]any{"id": id, "type": "message", "role": "assistant",
		"model": req.Model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": u.PromptTokens, "output_tokens": 1}}})
	i := 0
	if t.Text != "" {
		send("content_block_start", map[string]any{"index": i, "content_block": map[string]any{"type": "text", "text": ""}})
		for _, p := range split(t.Text, 64) {
			send("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "text_delta", "text": p}})
		}
		send("content_block_stop", map[string]any{"index": i})
		i++
	}
	for _, c := range calls {
		block := map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d", s.callSeq.Add(1)), "name": c.Name, "input": map[string]any{}}
		if set, member, ok := strings.Cut(c.Name, ":"); ok {
			block["name"], block["toolset_name"] = member, set
		}
		send("content_block_start", map[string]any{"index": i, "content_block": block})
		for _, p := range split(c.Args, chunkSize(t)) {
			send("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": p}})
		}
		send("content_block_stop", map[string]any{"index": i})
		i++
	}
	stop := "end_turn"
	if len(calls) > 0 {
		stop = "tool_use"
	}
	send("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": u.CompletionTokens}})
	send("message_stop", map[string]any{})
}

// writeMsgError writes an error as the Messages API does.
func writeMsgError(w http.ResponseWriter, status int, typ, msg string) {
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]string{"type": typ, "message": msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}
