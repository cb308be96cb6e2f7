package gemini

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"google.golang.org/genai"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/llm/internal/httpretry"
)

// Client talks to the Gemini API (models/{model}:streamGenerateContent).
// It implements contract.Model and is safe for concurrent use.
type Client struct {
	cfg    Config
	send   httpretry.Settings // cfg's, as used: read these, not cfg's
	models *genai.Models
	http   *http.Client
	log    *slog.Logger
}

var _ contract.Model = (*Client)(nil)

// New returns a Client for cfg. Invalid settings give an error wrapping
// llm.ErrConfig that says how to fix them.
func New(cfg Config) (*Client, error) {
	cfg, send, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	log := cmp.Or(cfg.Logger, slog.New(slog.DiscardHandler))
	// The SDK sends through this doer: llm's retries (a capped
	// Retry-After, warnings in the log), each attempt under its own
	// inactivity window. The SDK's own retries are off (no RetryOptions)
	// and so is its automatic continuation of a stream.
	d := send.Doer(log, func(s string) string { return redact(s, cfg.APIKey) })
	d.Reason = func(body []byte, status string) string { return cmp.Or(errorBody(body).Message, status) }
	// Backend, key and base URL are given, so the SDK reads none of its
	// variables (GEMINI_API_KEY, GOOGLE_API_KEY, GOOGLE_GEMINI_BASE_URL).
	sdk, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		Backend:    genai.BackendGeminiAPI,
		APIKey:     cfg.APIKey,
		HTTPClient: &http.Client{Transport: transport{d}},
		HTTPOptions: genai.HTTPOptions{BaseURL: cfg.root + "/", APIVersion: cfg.version,
			Headers: http.Header{"User-Agent": {"webagent"}}},
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %s", llm.ErrConfig, redact(err.Error(), cfg.APIKey))
	}
	return &Client{cfg: cfg, send: send, models: sdk.Models, http: send.HTTPClient, log: log}, nil
}

// Model returns the model name the client asks for.
func (c *Client) Model() string { return c.cfg.Model }

// BaseURL returns the API root the client talks to, with its version.
func (c *Client) BaseURL() string { return c.cfg.BaseURL }

// CloseIdleConnections closes the client's idle keep-alive connections.
func (c *Client) CloseIdleConnections() { c.http.CloseIdleConnections() }

// Complete sends the conversation and the tools and returns the model's
// reply, read from the stream.
//
// ctx bounds the whole call, retries included; when it ends the error
// matches ctx's error. A stream silent for Config.Inactivity ends with an
// error matching watchdog.ErrTimeout. Errors the server answers, before
// or inside the stream, are *llm.Error values. A request that fails
// before its stream starts (429, 5xx, a refused or reset connection) is
// sent again after a back-off that honours Retry-After, and so is one
// whose stream breaks off or fails with a transient error: its partial
// reply is dropped, never acted on.
func (c *Client) Complete(ctx context.Context, req contract.Request) (contract.Reply, error) {
	start := time.Now()
	if ctx.Err() != nil {
		return contract.Reply{}, fmt.Errorf("model request not sent: %w", httpretry.CtxErr(ctx))
	}
	b, err := c.build(req)
	if err != nil {
		return contract.Reply{}, fmt.Errorf("building the model request: %w", err)
	}
	for resend := 0; ; resend++ {
		reply, attempts, err := c.once(ctx, b)
		var e *llm.Error
		switch {
		case err == nil:
			c.logReply(reply, attempts+resend, start)
			return reply, nil
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

// once sends the request (with the doer's retries before the stream
// starts) and reads the stream; attempts is how many requests it sent.
func (c *Client) once(ctx context.Context, b *built) (reply contract.Reply, attempts int, err error) {
	w := &httpretry.Watch{Window: c.send.Inactivity}
	defer w.Stop() // cancels the attempt's context: the connection is closed if still open
	st := &bodyState{}
	cctx := context.WithValue(httpretry.WithWatch(ctx, w), bodyKey{}, st)
	a := &assembler{native: b.native, declared: b.declared}
	for resp, err := range c.models.GenerateContentStream(cctx, c.cfg.Model, b.contents, b.config) {
		if err != nil {
			return contract.Reply{}, w.Attempts, c.failure(ctx, w, err)
		}
		if err := a.add(resp, w.Attempts); err != nil {
			return contract.Reply{}, w.Attempts, err
		}
	}
	if st.err != nil {
		return contract.Reply{}, w.Attempts, c.failure(ctx, w, st.err)
	}
	reply, err = a.reply(w.Attempts)
	if err != nil {
		if stopped := w.Stopped(ctx); stopped != nil { // the stream was cut by the window or ctx
			return contract.Reply{}, w.Attempts, stopped
		}
	}
	return reply, w.Attempts, err
}

// failure explains why a call failed: the caller's context first, then
// the inactivity window, then the server's answer or the transport's
// error.
func (c *Client) failure(ctx context.Context, w *httpretry.Watch, err error) error {
	if stopped := w.Stopped(ctx); stopped != nil {
		return stopped
	}
	return c.classify(err, w.Attempts, w.Streaming)
}

func (c *Client) logReply(reply contract.Reply, attempts int, start time.Time) {
	attrs := []any{"model", c.cfg.Model, "took", time.Since(start), "attempts", attempts,
		"tool_calls", len(reply.ToolCalls), "text_bytes", len(reply.Content),
		"prompt_tokens", reply.Usage.PromptTokens, "cached_tokens", reply.Usage.CachedTokens,
		"completion_tokens", reply.Usage.CompletionTokens}
	if reply.Reasoning != "" {
		attrs = append(attrs, "reasoning", c.redact(clip(reply.Reasoning, 2000)))
	}
	c.log.Debug("model replied", attrs...)
}

// transport sends the SDK's requests through the retrying doer, and
// hands a stream's read error to the call (bodyState) as its end: the
// SDK would print it with the standard logger.
type transport struct{ d *httpretry.Doer }

func (t transport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.d.Do(req)
	if err != nil || resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp, err
	}
	if st, ok := req.Context().Value(bodyKey{}).(*bodyState); ok {
		resp.Body = &quietBody{ReadCloser: resp.Body, st: st}
	}
	return resp, nil
}

type bodyKey struct{}

// bodyState is the read error of a call's stream, if any.
type bodyState struct{ err error }

// quietBody ends at the first read error, which it keeps.
type quietBody struct {
	io.ReadCloser
	st *bodyState
}

func (b *quietBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		if b.st.err == nil {
			b.st.err = err
		}
		err = io.EOF
	}
	return n, err
}
