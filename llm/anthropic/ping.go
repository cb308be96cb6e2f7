package anthropic

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/llm/internal/httpretry"
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
	header := http.Header{"Anthropic-Version": {Version}}
	if c.cfg.APIKey != "" {
		header.Set("x-api-key", c.cfg.APIKey)
	}
	s, body, absent, err := httpretry.Probe(ctx, c.http, url, header)
	switch {
	case err != nil && ctx.Err() != nil:
		return fmt.Errorf("checking the model server at %s: %w", c.cfg.BaseURL, context.Cause(ctx))
	case err != nil:
		return fmt.Errorf("%w: cannot reach %s (%s)", llm.ErrUnreachable, url, c.redact(err.Error()))
	case absent != "":
		return fmt.Errorf("%w: POST %s answered %s, not the Anthropic Messages API; for an OpenAI-compatible server use --api chat",
			ErrNotMessagesEndpoint, url, absent)
	case s == http.StatusUnauthorized || s == http.StatusForbidden || s >= 500:
		typ, msg := errorBody(body)
		if msg == "" {
			msg = strings.TrimSpace(string(body))
		}
		return &llm.Error{Status: s, Code: typ, Message: c.redact(clip(msg, 2000)), Kind: kindOf(s, typ, msg), Attempts: 1}
	}
	return nil
}
