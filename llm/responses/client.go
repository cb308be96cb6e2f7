package responses

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/llm/internal/httpretry"
	"github.com/webagent/webagent/watchdog"
)

// Client talks to an OpenAI Responses API endpoint (POST /responses). It
// implements contract.Model and is safe for concurrent use.
type Client struct {
	cfg  Config
	send httpretry.Settings // cfg's, as used: read these, not cfg's
	svc  responses.ResponseService
	http *http.Client
	log  *slog.Logger
}

var _ contract.Model = (*Client)(nil)

// New returns a Client for cfg. Invalid settings give an error wrapping
// llm.ErrConfig that says how to fix them.
func New(cfg Config) (*Client, error) {
	cfg, send, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	hc := send.HTTPClient
	// The service is built from these options alone, not openai.NewClient:
	// no OPENAI_* variable is read behind the Config's back, and the SDK's
	// own retries are off (this package retries, with the Config's delays
	// and an inactivity window for each attempt).
	opts := []option.RequestOption{option.WithBaseURL(cfg.BaseURL + "/"), option.WithHTTPClient(hc), option.WithMaxRetries(0)}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	return &Client{cfg: cfg, send: send, svc: responses.NewResponseService(opts...), http: hc,
		log: cmp.Or(cfg.Logger, slog.New(slog.DiscardHandler))}, nil
}

// Model returns the model name the client asks for.
func (c *Client) Model() string { return c.cfg.Model }

// BaseURL returns the API root the client talks to.
func (c *Client) BaseURL() string { return c.cfg.BaseURL }

// CloseIdleConnections closes the client's idle keep-alive connections.
func (c *Client) CloseIdleConnections() { c.http.CloseIdleConnections() }

// Complete sends the conversation and the tools and returns the model's
// reply, read from the stream of events.
//
// ctx bounds the whole call, retries included; when it ends the error
// matches ctx's error. A stream silent for Config.Inactivity ends with an
// error matching watchdog.ErrTimeout. Errors the server answers, before or
// inside the stream, are *llm.Error values classified as package llm
// classifies its own. A request that fails before its stream starts (429,
// 5xx, a refused or reset connection) is sent again after a back-off that
// honours Retry-After, and so is one whose stream fails with a transient
// error (response.failed with a server error): its partial reply is
// dropped, never acted on.
func (c *Client) Complete(ctx context.Context, req contract.Request) (contract.Reply, error) {
	start := time.Now()
	if ctx.Err() != nil {
		return contract.Reply{}, fmt.Errorf("model request not sent: %w", httpretry.CtxErr(ctx))
	}
	params, err := c.buildParams(req)
	if err != nil {
		return contract.Reply{}, fmt.Errorf("building the model request: %w", err)
	}
	for attempt := 1; ; attempt++ {
		reply, f := c.once(ctx, params, attempt)
		if f == nil {
			c.logReply(reply, attempt, start)
			return reply, nil
		}
		if !f.retry || attempt > c.send.MaxRetries || ctx.Err() != nil {
			return contract.Reply{}, f.err
		}
		delay := f.after
		if delay < 0 {
			delay = c.send.Backoff(attempt)
		}
		delay = min(delay, c.send.MaxRetryDelay)
		c.log.Warn("model request failed; retrying", "attempt", attempt, "max_attempts", c.send.MaxRetries+1,
			"retry_in", delay, "reason", c.redact(f.err.Error()))
		if err := httpretry.Sleep(ctx, delay); err != nil {
			return contract.Reply{}, fmt.Errorf("waiting %s to send the model request again: %w", delay, err)
		}
	}
}

// failure is why one attempt failed and whether to try again (after
// after, or a back-off when after is negative).
type failure struct {
	err   error
	retry bool
	after time.Duration
}

// failedResponse is a non-2xx answer, read by the middleware.
type failedResponse struct {
	status int
	header http.Header
	body   []byte
}

// once sends the request once and reads its stream, under an inactivity
// window of its own.
func (c *Client) once(ctx context.Context, params responses.ResponseNewParams, attempt int) (contract.Reply, *failure) {
	actx, in, err := watchdog.NewInactivity(ctx, "model server", c.send.Inactivity)
	if err != nil {
		return contract.Reply{}, &failure{err: err}
	}
	defer in.Stop() // cancels the attempt's context: the connection is closed if still open
	var failed *failedResponse
	streaming := false
	watch := func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(r)
		if err != nil || resp == nil {
			return resp, err
		}
		if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
			streaming = true
			in.Touch()
			resp.Body = &httpretry.TouchBody{ReadCloser: resp.Body, In: in}
			return resp, nil
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		_ = resp.Body.Close()
		failed = &failedResponse{status: resp.StatusCode, header: resp.Header, body: body}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		return resp, nil
	}
	stream := c.svc.NewStreaming(actx, params, option.WithMiddleware(watch))
	defer func() { _ = stream.Close() }()
	if err := stream.Err(); err != nil || failed != nil {
		return contract.Reply{}, c.beforeStream(ctx, actx, failed, err, attempt)
	}
	reply, err := c.read(stream, attempt)
	if err == nil {
		return reply, nil
	}
	if ctx.Err() != nil {
		return contract.Reply{}, &failure{err: fmt.Errorf("model request stopped: %w", httpretry.CtxErr(ctx))}
	}
	if idle := httpretry.IdleCause(actx); idle != nil {
		if !streaming {
			return contract.Reply{}, &failure{err: fmt.Errorf("model server sent no response within the %s inactivity window: %w", c.send.Inactivity, idle)}
		}
		return contract.Reply{}, &failure{err: fmt.Errorf("model stream went silent for the %s inactivity window: %w", c.send.Inactivity, idle)}
	}
	var e *llm.Error
	if errors.As(err, &e) {
		return contract.Reply{}, &failure{err: err, retry: e.Retryable, after: -1}
	}
	return contract.Reply{}, &failure{err: fmt.Errorf("reading the model stream: %w", err)}
}

// beforeStream explains a failure before the stream started: the
// caller's context first, then the inactivity window, then the server's
// answer or the transport's error.
func (c *Client) beforeStream(ctx, actx context.Context, failed *failedResponse, err error, attempt int) *failure {
	switch {
	case ctx.Err() != nil:
		return &failure{err: fmt.Errorf("model request stopped: %w", httpretry.CtxErr(ctx))}
	case httpretry.IdleCause(actx) != nil:
		return &failure{err: fmt.Errorf("model server sent no response within the %s inactivity window: %w",
			c.send.Inactivity, httpretry.IdleCause(actx))}
	case failed != nil:
		e := llm.ProviderError(failed.status, failed.body, c.cfg.APIKey, attempt)
		after, ok := httpretry.After(failed.header, time.Now())
		if !ok {
			after = -1
		}
		return &failure{err: e, retry: e.Retryable, after: after}
	case cannotConnect(err):
		return &failure{err: fmt.Errorf("%w: cannot reach %s (%w); is the model server still running at that address?",
			llm.ErrUnreachable, c.cfg.BaseURL, err), retry: httpretry.Transient(err), after: -1}
	}
	return &failure{err: fmt.Errorf("model request failed: %w", err), retry: httpretry.Transient(err), after: -1}
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

// redact removes the API key (8 characters or more) from a text.
func (c *Client) redact(s string) string {
	if len(c.cfg.APIKey) < 8 {
		return s
	}
	return strings.ReplaceAll(s, c.cfg.APIKey, "[REDACTED]")
}

// cannotConnect reports whether no connection could be made.
func cannotConnect(err error) bool {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return true
	}
	var opErr *net.OpError
	return errors.As(err, &opErr) && opErr.Op == "dial"
}
