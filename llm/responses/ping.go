package responses

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

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
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader("{}"))
	if err != nil {
		return fmt.Errorf("%w: %w", llm.ErrConfig, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("checking the model server at %s: %w", c.cfg.BaseURL, httpretry.CtxErr(ctx))
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
		return fmt.Errorf("%w: POST %s answered %s, not OpenAI's Responses API; for a server of chat completions use --api chat",
			ErrNotResponsesEndpoint, url, what)
	case s == http.StatusUnauthorized || s == http.StatusForbidden || s >= 500:
		return llm.ProviderError(s, body, c.cfg.APIKey, 1)
	}
	return nil
}
