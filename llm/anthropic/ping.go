package anthropic

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/webagent/webagent/llm"
)

// ErrNotMessagesEndpoint marks a base URL that has no Messages API: POST
// /v1/messages answers 404, 405 or 501, or an HTML page (an
// OpenAI-compatible server, a website).
var ErrNotMessagesEndpoint = errors.New("anthropic: the base URL has no Messages API")

// Ping checks, without retries, that the server at BaseURL speaks the
// Messages API and accepts the key, so that a command fails fast: it sends
// POST {BaseURL}/v1/messages with an empty JSON object, which no server can
// turn into a reply (so it costs nothing). 401 or 403 is an *llm.Error
// matching llm.ErrUnauthorized; 404, 405, 501 or an HTML page is
// ErrNotMessagesEndpoint; no connection wraps llm.ErrUnreachable; 5xx is
// an *llm.Error. Any other answer, such as 400 for the missing fields,
// shows the API is there. Bound it with ctx.
func (c *Client) Ping(ctx context.Context) error {
	url := c.cfg.BaseURL + "/v1/messages"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader("{}"))
	if err != nil {
		return fmt.Errorf("%w: %w", llm.ErrConfig, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("anthropic-version", Version)
	if c.cfg.APIKey != "" {
		req.Header.Set("x-api-key", c.cfg.APIKey)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("checking the model server at %s: %w", c.cfg.BaseURL, context.Cause(ctx))
		}
		return fmt.Errorf("%w: cannot reach %s (%s)", llm.ErrUnreachable, url, c.redact(err.Error()))
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	s := resp.StatusCode
	switch {
	case s == http.StatusNotFound || s == http.StatusMethodNotAllowed || s == http.StatusNotImplemented || mt == "text/html":
		what := fmt.Sprintf("%d %s", s, http.StatusText(s))
		if mt == "text/html" {
			what += " with an HTML page"
		}
		return fmt.Errorf("%w: POST %s answered %s, not the Anthropic Messages API; for an OpenAI-compatible server use --api chat",
			ErrNotMessagesEndpoint, url, what)
	case s == http.StatusUnauthorized || s == http.StatusForbidden || s >= 500:
		typ, msg := errorBody(body)
		if msg == "" {
			msg = strings.TrimSpace(string(body))
		}
		return &llm.Error{Status: s, Code: typ, Message: c.redact(clip(msg, 2000)), Kind: kindOf(s, typ, msg), Attempts: 1}
	}
	return nil
}
