package responses

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/llm/internal/httpretry"
)

// ErrNotResponsesEndpoint marks a base URL that has no Responses API: POST
// {BaseURL}/responses answers 404, 405 or 501, or an HTML page (a server
// of chat completions only, a website).
var ErrNotResponsesEndpoint = errors.New("responses: the base URL has no Responses API")

// Ping checks, without retries, that the server at BaseURL speaks the
// Responses API and accepts the key, so that a command fails fast: it
// sends POST {BaseURL}/responses with an empty JSON object, which no
// server can turn into a reply (so it costs nothing). 401 or 403 is an
// *llm.Error matching llm.ErrUnauthorized; 404, 405, 501 or an HTML page
// is ErrNotResponsesEndpoint; no connection wraps llm.ErrUnreachable; 5xx
// is an *llm.Error. Any other answer, such as 400 for the missing model,
// shows the API is there. Bound it with ctx.
func (c *Client) Ping(ctx context.Context) error {
	url := c.cfg.BaseURL + "/responses"
	header := http.Header{}
	if c.cfg.APIKey != "" {
		header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	s, body, absent, err := httpretry.Probe(ctx, c.http, url, header)
	switch {
	case err != nil && ctx.Err() != nil:
		return fmt.Errorf("checking the model server at %s: %w", c.cfg.BaseURL, httpretry.CtxErr(ctx))
	case err != nil:
		return fmt.Errorf("%w: cannot reach %s (%s)", llm.ErrUnreachable, url, c.redact(err.Error()))
	case absent != "":
		return fmt.Errorf("%w: POST %s answered %s, not OpenAI's Responses API; for a server of chat completions use --api chat",
			ErrNotResponsesEndpoint, url, absent)
	case s == http.StatusUnauthorized || s == http.StatusForbidden || s >= 500:
		return llm.ProviderError(s, body, c.cfg.APIKey, 1)
	}
	return nil
}
