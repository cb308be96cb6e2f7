package llm

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm/internal/httpretry"
)

// Client talks to an OpenAI-compatible chat-completions endpoint. It
// implements contract.Model and is safe for concurrent use.
//
// Requests are go-openai's request type (see wireRequest) sent through a
// retrying HTTP doer (httpretry.Doer); the stream is read by this
// package's own SSE reader (sseReader, readStream), because go-openai's
// decoder loses what some servers send: "error:" fields, error objects in
// chunks, comments glued to the next chunk, arguments sent as objects,
// null IDs, reasoning text and Gemini's thought signatures.
type Client struct {
	cfg    Config
	send   httpretry.Settings // cfg's, as used: read these, not cfg's
	doer   *httpretry.Doer
	http   *http.Client // without retries: Ping fails fast
	log    *slog.Logger
	prompt atomic.Bool  // tools are described in the prompt
	seq    atomic.Int64 // replies read, for the IDs of calls that came without one
	// warnedDropped: the warning that the server drops the tools was
	// given (once a client).
	warnedDropped atomic.Bool
}

var _ contract.Model = (*Client)(nil)

// New returns a Client for cfg. Invalid settings give an error wrapping
// ErrConfig that says how to fix them.
func New(cfg Config) (*Client, error) {
	cfg, send, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	log := cmp.Or(cfg.Logger, slog.New(slog.DiscardHandler))
	doer := send.Doer(log, func(s string) string { return redactKey(s, cfg.APIKey) })
	doer.Final = func(status int, body []byte) bool { return !transientBody(status, body) }
	doer.Reason = bodyMessage
	c := &Client{cfg: cfg, send: send, doer: doer, http: send.HTTPClient, log: log}
	c.prompt.Store(cfg.ToolMode == ToolModePrompt)
	return c, nil
}

// Model returns the model name the client asks for.
func (c *Client) Model() string { return c.cfg.Model }

// BaseURL returns the API root the client talks to.
func (c *Client) BaseURL() string { return c.cfg.BaseURL }

// PromptMode reports whether the tools are described in the prompt
// (ToolModePrompt, or after a server refused tools).
func (c *Client) PromptMode() bool { return c.prompt.Load() }

// CloseIdleConnections closes the client's idle keep-alive connections.
func (c *Client) CloseIdleConnections() { c.http.CloseIdleConnections() }

// Complete sends the conversation and the tools and returns the model's
// reply, read from a stream.
//
// ctx bounds the whole call, retries included; when it ends the connection
// is closed and the error matches ctx's error with errors.Is. A stream that
// stays silent for Config.Inactivity ends with an error matching
// watchdog.ErrTimeout. Errors answered by the server, before or inside the
// stream, are *Error values with the provider's message. A transient error
// inside the stream (the provider failed mid-reply) is sent again like a
// 5xx, up to Config.MaxRetries times: the partial reply is dropped, never
// acted on.
func (c *Client) Complete(ctx context.Context, req contract.Request) (contract.Reply, error) {
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return contract.Reply{}, fmt.Errorf("model request not sent: %w", httpretry.CtxErr(ctx))
	}
	switched := false
	for resend := 0; ; resend++ {
		prompt := c.prompt.Load()
		reply, err := c.once(ctx, req, prompt, start)
		var e *Error
		switch {
		case err == nil:
			if !prompt && toolsDropped(req, reply) && c.warnedDropped.CompareAndSwap(false, true) {
				// The server took the tools, but its prompt could not
				// hold them: the model's chat template has no place for
				// tools, and the model never sees them. Info, not Warn:
				// the scripted model server's usage counts no tools.
				c.log.Info("the model server's prompt was smaller than the tools alone: its chat template seems to drop them, so the model cannot call them; try --tool-mode prompt",
					"prompt_tokens", reply.Usage.PromptTokens, "tools", len(req.Tools))
			}
			return reply, nil
		case errors.As(err, &e) && e.Kind == KindToolsUnsupported && !prompt && !switched &&
			c.cfg.ToolMode != ToolModeNative && len(req.Tools) > 0:
			// The server refuses tools: describe them in the prompt from
			// now on, and send this request again at once.
			switched = true
			c.prompt.Store(true)
			c.log.Warn("the model server refuses tools; describing them in the prompt instead (--tool-mode prompt)", "reason", e.Message)
		case errors.As(err, &e) && e.Status == 0 && e.Retryable && resend < c.send.MaxRetries && ctx.Err() == nil:
			if err := c.send.Resend(ctx, c.log, resend+1, e.Message); err != nil {
				return contract.Reply{}, err
			}
		default:
			if errors.As(err, &e) && e.Status == 0 && resend > 0 {
				e.Attempts += resend
			}
			return contract.Reply{}, err
		}
	}
}

// once sends the request once (with the doer's retries before the stream
// starts) and reads the stream.
func (c *Client) once(ctx context.Context, req contract.Request, prompt bool, start time.Time) (contract.Reply, error) {
	wreq, err := c.buildRequest(req, prompt)
	if err != nil {
		return contract.Reply{}, err
	}
	body, err := json.Marshal(wreq)
	if err != nil {
		return contract.Reply{}, fmt.Errorf("encoding the model request: %w", err)
	}
	w := &httpretry.Watch{Window: c.send.Inactivity}
	defer w.Stop() // cancels the request's context: the connection is closed if still open

	hreq, err := http.NewRequestWithContext(httpretry.WithWatch(ctx, w), http.MethodPost, c.cfg.BaseURL+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return contract.Reply{}, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "text/event-stream")
	if c.cfg.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	resp, err := c.doer.Do(hreq)
	if err != nil {
		return contract.Reply{}, c.failure(ctx, w, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return contract.Reply{}, c.failure(ctx, w, c.responseError(resp, w.Attempts))
	}
	defer resp.Body.Close()
	reply, finish, err := c.readStream(resp.Body, w.Attempts)
	if err != nil {
		return contract.Reply{}, c.failure(ctx, w, err)
	}
	textCalls := false
	if len(reply.ToolCalls) == 0 && len(req.Tools) > 0 {
		names := toolNames(req.Tools)
		calls, rest := callsFromText(reply.Content, names)
		if len(calls) == 0 {
			calls, rest = coordCalls(reply.Content, names)
		}
		if len(calls) > 0 {
			reply.ToolCalls, reply.Content, textCalls = calls, rest, true
		}
	}
	// Calls that came without an ID get one unique in the conversation.
	n := c.seq.Add(1)
	for i := range reply.ToolCalls {
		if reply.ToolCalls[i].ID == "" {
			reply.ToolCalls[i].ID = fmt.Sprintf("call_%d_%d", n, i)
		}
	}
	attrs := []any{"model", c.cfg.Model, "took", time.Since(start), "attempts", w.Attempts,
		"tool_calls", len(reply.ToolCalls), "calls_from_text", textCalls, "prompt_mode", prompt,
		"text_bytes", len(reply.Content), "finish", finish,
		"prompt_tokens", reply.Usage.PromptTokens, "completion_tokens", reply.Usage.CompletionTokens}
	if reply.Reasoning != "" {
		attrs = append(attrs, "reasoning", c.redact(clip(reply.Reasoning, 2000)))
	}
	c.log.Debug("model replied", attrs...)
	return reply, nil
}

// failure explains why a call failed: the caller's context first, then
// the inactivity window, then the server's answer.
func (c *Client) failure(ctx context.Context, w *httpretry.Watch, err error) error {
	if stopped := w.Stopped(ctx); stopped != nil {
		return stopped
	}
	return c.classify(err, w.Attempts)
}
