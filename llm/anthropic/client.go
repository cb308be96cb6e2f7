package anthropic

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/llm/internal/httpretry"
)

// Client talks to the Anthropic Messages API. It implements
// contract.Model and is safe for concurrent use.
type Client struct {
	cfg  Config
	send httpretry.Settings // cfg's, as used: read these, not cfg's
	sdk  sdk.Client
	http *http.Client
	log  *slog.Logger
}

var _ contract.Model = (*Client)(nil)

// New returns a Client for cfg. Invalid settings give an error wrapping
// llm.ErrConfig.
func New(cfg Config) (*Client, error) {
	cfg, send, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	log := cmp.Or(cfg.Logger, slog.New(slog.DiscardHandler))
	// The SDK's own retries are off: this doer retries as package llm does (a
	// capped Retry-After, warnings in the log) and gives each attempt its own
	// inactivity window, which the SDK cannot.
	d := send.Doer(log, func(s string) string { return redact(s, cfg.APIKey) })
	opts := []option.RequestOption{
		option.WithoutEnvironmentDefaults(), // the command resolves the key and the URL itself
		option.WithBaseURL(cfg.BaseURL + "/"),
		option.WithHTTPClient(d),
		option.WithMaxRetries(0), // the doer retries, each attempt under its own window
		option.WithHeader("anthropic-version", Version),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithHeader("x-api-key", cfg.APIKey))
	}
	return &Client{cfg: cfg, send: send, sdk: sdk.NewClient(opts...), http: send.HTTPClient, log: log}, nil
}

// Model returns the model name the client asks for.
func (c *Client) Model() string { return c.cfg.Model }

// BaseURL returns the API root the client talks to.
func (c *Client) BaseURL() string { return c.cfg.BaseURL }

// CloseIdleConnections closes the client's idle keep-alive connections.
func (c *Client) CloseIdleConnections() { c.http.CloseIdleConnections() }

// Complete sends the conversation and the tools and returns the model's
// reply, read from a stream. ctx bounds the whole call; a stream silent
// for Config.Inactivity ends with an error matching watchdog.ErrTimeout;
// an error event of the stream that may pass (overloaded_error) sends the
// request again, up to Config.MaxRetries times, the partial reply dropped.
func (c *Client) Complete(ctx context.Context, req contract.Request) (contract.Reply, error) {
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return contract.Reply{}, fmt.Errorf("model request not sent: %w", context.Cause(ctx))
	}
	p, err := c.params(req)
	if err != nil {
		return contract.Reply{}, err
	}
	for resend := 0; ; resend++ {
		reply, err := c.once(ctx, p, start)
		var e *llm.Error
		switch {
		case err == nil:
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
// starts) and reads the stream.
func (c *Client) once(ctx context.Context, p sdk.MessageNewParams, start time.Time) (contract.Reply, error) {
	w := &httpretry.Watch{Window: c.send.Inactivity}
	defer w.Stop() // cancels the attempt's context: the connection is closed if still open
	stream := c.sdk.Messages.NewStreaming(httpretry.WithWatch(ctx, w), p, c.sampling()...)
	defer stream.Close()
	var acc assembler
	for stream.Next() {
		acc.add(stream.Current())
	}
	if err := stream.Err(); err != nil {
		return contract.Reply{}, c.failure(ctx, w, err)
	}
	reply, err := acc.reply(w.Attempts)
	if err != nil {
		return contract.Reply{}, c.failure(ctx, w, err)
	}
	attrs := []any{"model", c.cfg.Model, "took", time.Since(start), "attempts", w.Attempts,
		"tool_calls", len(reply.ToolCalls), "text_bytes", len(reply.Content), "stop_reason", acc.stop,
		"prompt_tokens", reply.Usage.PromptTokens, "cached_tokens", reply.Usage.CachedTokens,
		"cache_write_tokens", acc.usage.CacheCreationInputTokens, "completion_tokens", reply.Usage.CompletionTokens}
	if reply.Reasoning != "" {
		attrs = append(attrs, "reasoning", c.redact(clip(reply.Reasoning, 2000)))
	}
	c.log.Debug("model replied", attrs...)
	return reply, nil
}

// sampling sends temperature and top_p exactly as set (0 included); the
// SDK's parameters have no field for them.
func (c *Client) sampling() []option.RequestOption {
	var opts []option.RequestOption
	if t := c.cfg.Temperature; t != nil {
		opts = append(opts, option.WithJSONSet("temperature", float64(*t)))
	}
	if t := c.cfg.TopP; t != nil {
		opts = append(opts, option.WithJSONSet("top_p", float64(*t)))
	}
	return opts
}

// failure explains why a call failed: the caller's context first, then
// the inactivity window, then the server's answer.
func (c *Client) failure(ctx context.Context, w *httpretry.Watch, err error) error {
	if stopped := w.Stopped(ctx); stopped != nil {
		return stopped
	}
	return c.classify(err, w.Attempts, w.Streaming)
}
