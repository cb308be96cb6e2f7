package llm

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/rs/zerolog"
	openai "github.com/sashabaranov/go-openai"

	"github.com/webagent/webagent/agent"
)

// Client talks to an OpenAI-compatible chat-completions endpoint. It
// implements agent.Model and is safe for concurrent use.
type Client struct {
	cfg  Config
	api  *openai.Client
	http *http.Client // without retries: Ping fails fast
	log  zerolog.Logger
}

var _ agent.Model = (*Client)(nil)

// New returns a Client for cfg. Invalid settings give an error wrapping
// ErrConfig that says how to fix them.
func New(cfg Config) (*Client, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{} // no Timeout: streams are bounded by ctx and the inactivity window
		if t, ok := http.DefaultTransport.(*http.Transport); ok {
			hc.Transport = t.Clone()
		}
	}
	ocfg := openai.DefaultConfig(cfg.APIKey)
	ocfg.BaseURL = cfg.BaseURL
	ocfg.HTTPClient = &retryDoer{
		next:       hc,
		maxRetries: cfg.MaxRetries,
		baseDelay:  cfg.RetryBaseDelay,
		maxDelay:   cfg.MaxRetryDelay,
		log:        cfg.Logger,
		apiKey:     cfg.APIKey,
	}
	// SSE comment lines (keep-alives) count as "empty messages" in the
	// library; silence is bounded by the inactivity window instead.
	ocfg.EmptyMessagesLimit = math.MaxUint32
	return &Client{cfg: cfg, api: openai.NewClientWithConfig(ocfg), http: hc, log: cfg.Logger}, nil
}

// Model returns the model name the client asks for.
func (c *Client) Model() string { return c.cfg.Model }

// BaseURL returns the API root the client talks to.
func (c *Client) BaseURL() string { return c.cfg.BaseURL }

// CloseIdleConnections closes the client's idle keep-alive connections.
func (c *Client) CloseIdleConnections() { c.http.CloseIdleConnections() }

// Complete sends the conversation and the tools and returns the model's
// reply, read from a stream.
//
// ctx bounds the whole call, retries included; when it ends the connection
// is closed and the error matches ctx's error with errors.Is. A stream that
// stays silent for Config.Inactivity ends with an error matching
// watchdog.ErrTimeout. Errors answered by the server are *Error values.
func (c *Client) Complete(ctx context.Context, req agent.Request) (agent.Reply, error) {
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return agent.Reply{}, fmt.Errorf("model request not sent: %w", ctxErr(ctx))
	}
	creq, err := c.chatRequest(req)
	if err != nil {
		return agent.Reply{}, err
	}
	w := &streamWatch{window: c.cfg.Inactivity}
	defer w.stop() // cancels the request's context: the connection is closed if still open

	stream, err := c.api.CreateChatCompletionStream(withWatch(ctx, w), creq)
	if err != nil {
		return agent.Reply{}, c.failure(ctx, w, err, start)
	}
	defer stream.Close()
	reply, finish, err := readStream(stream, w)
	if err != nil {
		return agent.Reply{}, c.failure(ctx, w, err, start)
	}
	c.log.Debug().Str("model", c.cfg.Model).Dur("took", time.Since(start)).Int("attempts", w.attempts).
		Int("tool_calls", len(reply.ToolCalls)).Int("text_bytes", len(reply.Content)).Str("finish", finish).
		Int("prompt_tokens", reply.Usage.PromptTokens).Int("completion_tokens", reply.Usage.CompletionTokens).
		Msg("model replied")
	return reply, nil
}

// failure explains why a call failed: the caller's context first, then
// the inactivity window, then the server's answer.
func (c *Client) failure(ctx context.Context, w *streamWatch, err error, start time.Time) error {
	took := time.Since(start).Round(time.Millisecond)
	if ctx.Err() != nil {
		return fmt.Errorf("model request stopped after %s: %w", took, ctxErr(ctx))
	}
	if idle := w.idle(); idle != nil {
		if !w.streaming {
			return fmt.Errorf("model server sent no response within the %s inactivity window: %w", w.window, idle)
		}
		return fmt.Errorf("model stream went silent for the %s inactivity window: %w", w.window, idle)
	}
	return c.classify(err, w.attempts)
}

// chatRequest maps an agent request to the library's request.
func (c *Client) chatRequest(req agent.Request) (openai.ChatCompletionRequest, error) {
	msgs := make([]openai.ChatCompletionMessage, 0, len(req.Messages))
	for _, m := range req.Messages {
		om := openai.ChatCompletionMessage{Role: string(m.Role), Content: m.Content, ToolCallID: m.ToolCallID}
		if m.Role == agent.RoleTool && m.Content == "" {
			om.Content = "(no output)" // servers reject a tool message without content
		}
		if len(m.Images) > 0 {
			// Vision: text and images as content parts (data URLs).
			om.Content = ""
			om.MultiContent = []openai.ChatMessagePart{{Type: openai.ChatMessagePartTypeText, Text: m.Content}}
			for _, png := range m.Images {
				om.MultiContent = append(om.MultiContent, openai.ChatMessagePart{
					Type:     openai.ChatMessagePartTypeImageURL,
					ImageURL: &openai.ChatMessageImageURL{URL: "data:image/png;base64," + base64.StdEncoding.EncodeToString(png), Detail: openai.ImageURLDetailAuto},
				})
			}
		}
		for _, tc := range m.ToolCalls {
			args := tc.Arguments
			if args == "" {
				args = "{}" // the library omits empty arguments, which servers reject
			}
			om.ToolCalls = append(om.ToolCalls, openai.ToolCall{
				ID:       tc.ID,
				Type:     openai.ToolTypeFunction,
				Function: openai.FunctionCall{Name: tc.Name, Arguments: args},
			})
		}
		msgs = append(msgs, om)
	}
	tools := make([]openai.Tool, 0, len(req.Tools))
	for _, t := range req.Tools {
		params := t.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		} else if !json.Valid(params) {
			return openai.ChatCompletionRequest{}, fmt.Errorf("tool %q: its parameters are not valid JSON", t.Name)
		}
		tools = append(tools, openai.Tool{
			Type:     openai.ToolTypeFunction,
			Function: &openai.FunctionDefinition{Name: t.Name, Description: t.Description, Parameters: params},
		})
	}
	creq := openai.ChatCompletionRequest{
		Model:         c.cfg.Model,
		Messages:      msgs,
		Stream:        true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
	}
	if len(tools) > 0 {
		creq.Tools = tools
	}
	if c.cfg.Temperature != nil {
		creq.Temperature = *c.cfg.Temperature
	}
	return creq, nil
}
