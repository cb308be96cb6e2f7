package llm

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/webagent/webagent/contract"
)

// wireRequest is the body of a chat-completions request: go-openai's
// request type, with the fields it would lose shadowed by ours (the outer
// field of the same JSON name wins). The library's float fields are
// "omitempty", so a temperature of 0 would never be sent; its messages
// have no room for a tool call's provider data (Gemini's
// extra_content.google.thought_signature), which must go back verbatim.
type wireRequest struct {
	openai.ChatCompletionRequest
	Messages    []wireMessage `json:"messages"`
	Temperature *float32      `json:"temperature,omitempty"`
	TopP        *float32      `json:"top_p,omitempty"`
	MaxTokens   *int          `json:"max_tokens,omitempty"`
	// PromptCacheKey is OpenAI's routing hint for its prompt cache
	// (go-openai's chat request lacks it); sent to OpenAI only, as other
	// servers may refuse a field they do not know. Anthropic's
	// cache_control belongs to a client of its own API, not this one.
	PromptCacheKey string `json:"prompt_cache_key,omitempty"`
}

// wireMessage is a request message. Content is a string or a list of
// parts (vision).
type wireMessage struct {
	Role       string         `json:"role"`
	Content    any            `json:"content,omitempty"`
	ToolCalls  []wireCallSent `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

type wireCallSent struct {
	ID           string          `json:"id"`
	Type         string          `json:"type"`
	Function     wireFuncSent    `json:"function"`
	ExtraContent json.RawMessage `json:"extra_content,omitempty"`
}

type wireFuncSent struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// buildRequest maps an agent request to the request body. With prompt
// set, the tools are described in the system message and calls and
// results are written as text (see promptMessages).
func (c *Client) buildRequest(req contract.Request, prompt bool) (*wireRequest, error) {
	tools := make([]openai.Tool, 0, len(req.Tools))
	for _, t := range req.Tools {
		params := t.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		} else if !json.Valid(params) {
			return nil, fmt.Errorf("tool %q: its parameters are not valid JSON", t.Name)
		}
		tools = append(tools, openai.Tool{
			Type:     openai.ToolTypeFunction,
			Function: &openai.FunctionDefinition{Name: t.Name, Description: t.Description, Parameters: params},
		})
	}
	msgs := req.Messages
	if prompt && len(tools) > 0 {
		msgs = promptMessages(req)
		tools = nil
	}
	w := &wireRequest{
		ChatCompletionRequest: openai.ChatCompletionRequest{
			Model:         c.cfg.Model,
			Stream:        true,
			StreamOptions: &openai.StreamOptions{IncludeUsage: true},
			Seed:          c.cfg.Seed,
		},
		Temperature: c.cfg.Temperature,
		TopP:        c.cfg.TopP,
		MaxTokens:   c.cfg.MaxTokens,
	}
	if isOpenAI(c.cfg.BaseURL) {
		w.PromptCacheKey = req.CacheKey
	}
	if len(tools) > 0 {
		w.Tools = tools
	}
	for _, m := range msgs {
		w.Messages = append(w.Messages, wireMsg(m))
	}
	return w, nil
}

// wireMsg maps one message. Reasoning is never part of an contract.Message,
// so it is never sent back (DeepSeek rejects reasoning_content in input).
func wireMsg(m contract.Message) wireMessage {
	wm := wireMessage{Role: string(m.Role), ToolCallID: m.ToolCallID}
	switch {
	case len(m.Images) > 0:
		parts := []openai.ChatMessagePart{{Type: openai.ChatMessagePartTypeText, Text: m.Content}}
		for _, img := range m.Images {
			parts = append(parts, openai.ChatMessagePart{
				Type:     openai.ChatMessagePartTypeImageURL,
				ImageURL: &openai.ChatMessageImageURL{URL: imageURL(img), Detail: openai.ImageURLDetailAuto},
			})
		}
		wm.Content = parts
	case m.Role == contract.RoleTool && m.Content == "":
		wm.Content = "(no output)" // servers reject a tool message without content
	case m.Content != "":
		wm.Content = m.Content
	}
	for _, tc := range m.ToolCalls {
		args := tc.Arguments
		if args == "" {
			args = "{}" // servers reject empty arguments
		}
		wm.ToolCalls = append(wm.ToolCalls, wireCallSent{
			ID: tc.ID, Type: string(openai.ToolTypeFunction),
			Function:     wireFuncSent{Name: tc.Name, Arguments: args},
			ExtraContent: tc.Extra,
		})
	}
	return wm
}

// imageURL is an image as a data URL, its type (PNG, JPEG) read from its
// bytes: the agent's screenshots are PNG, a trace's JPEG.
func imageURL(img []byte) string {
	mime := http.DetectContentType(img)
	if !strings.HasPrefix(mime, "image/") {
		mime = "image/png"
	}
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(img)
}

// isOpenAI reports whether base is OpenAI's API, which takes
// prompt_cache_key.
func isOpenAI(base string) bool {
	u, err := url.Parse(base)
	return err == nil && u.Hostname() == "api.openai.com"
}
