package modelserver

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ChatRequest is the decoded body of a chat-completions request.
type ChatRequest struct {
	Model    string
	Messages []Message
	Tools    []Tool
	Stream   bool
	// IncludeUsage is stream_options.include_usage.
	IncludeUsage bool
	// Temperature is nil when the request did not set it.
	Temperature *float64
	// Raw is the body as received.
	Raw json.RawMessage
	// Toolset is ToolsetBrowser for a Messages request that declares
	// Claude's browser use toolset, ToolsetComputer for one that declares
	// a computer tool (Claude's, OpenAI's), else "".
	Toolset string
	// Screen is the width and height of the request's latest screenshot,
	// where its API carries the picture's bytes readably (Gemini's); 0, 0
	// otherwise.
	Screen [2]int
}

// Message is one message of a request.
type Message struct {
	Role       string
	Content    string
	ToolCalls  []MessageCall
	ToolCallID string
	// Images counts the image parts of the message (vision).
	Images int
}

// MessageCall is a tool call carried by an assistant message of a request.
type MessageCall struct {
	ID        string
	Name      string
	Arguments string
}

// Tool is a function tool offered by a request.
type Tool struct {
	Name        string
	Description string
	Parameters  json.RawMessage
}

// LastUser returns the content of the last user message, or "".
func (r *ChatRequest) LastUser() string { return r.last("user") }

// LastTool returns the content of the last tool message, or "".
func (r *ChatRequest) LastTool() string { return r.last("tool") }

func (r *ChatRequest) last(role string) string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == role {
			return r.Messages[i].Content
		}
	}
	return ""
}

// ToolNames returns the names of the tools offered, in order.
func (r *ChatRequest) ToolNames() []string {
	names := make([]string, len(r.Tools))
	for i, t := range r.Tools {
		names[i] = t.Name
	}
	return names
}

// wire forms of the request body.
type wireRequest struct {
	Model         string        `json:"model"`
	Messages      []wireMessage `json:"messages"`
	Tools         []wireTool    `json:"tools"`
	Stream        bool          `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	Temperature *float64 `json:"temperature"`
}

type wireMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCalls  []wireCall      `json:"tool_calls"`
	ToolCallID string          `json:"tool_call_id"`
}

type wireCall struct {
	Index    *int   `json:"index,omitempty"`
	ID       string `json:"id,omitempty"`
	Type     string `json:"type,omitempty"`
	Function struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type wireTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

func decodeChatRequest(body []byte) (*ChatRequest, error) {
	req := &ChatRequest{Raw: json.RawMessage(body)}
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return req, fmt.Errorf("request body is not a chat-completions request: %w", err)
	}
	req.Model = w.Model
	req.Stream = w.Stream
	req.IncludeUsage = w.StreamOptions != nil && w.StreamOptions.IncludeUsage
	req.Temperature = w.Temperature
	for i, m := range w.Messages {
		content, images, err := decodeContent(m.Content)
		if err != nil {
			return req, fmt.Errorf("message %d: %w", i, err)
		}
		msg := Message{Role: m.Role, Content: content, ToolCallID: m.ToolCallID, Images: images}
		for _, c := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, MessageCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
		}
		req.Messages = append(req.Messages, msg)
	}
	for _, t := range w.Tools {
		req.Tools = append(req.Tools, Tool{Name: t.Function.Name, Description: t.Function.Description, Parameters: t.Function.Parameters})
	}
	return req, nil
}

// decodeContent accepts a string, null, or an array of content parts (whose
// text parts are joined).
func decodeContent(raw json.RawMessage) (string, int, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", 0, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, 0, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", 0, fmt.Errorf("content is neither a string nor a list of parts: %w", err)
	}
	var b strings.Builder
	images := 0
	for _, p := range parts {
		switch p.Type {
		case "text":
			b.WriteString(p.Text)
		case "image_url":
			images++
		}
	}
	return b.String(), images, nil
}
