package gemini

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/llm/internal/httpretry"
)

// ErrNotGeminiEndpoint marks a base URL that has no Gemini API: POST
// {BaseURL}/models/{model}:generateContent answers 404, 405 or 501
// without Google's error object, or an HTML page (an OpenAI-compatible
// server, a website).
var ErrNotGeminiEndpoint = errors.New("gemini: the base URL has no Gemini API")

// Ping checks, without retries, that the server at BaseURL speaks the
// Gemini API and accepts the key, so that a command fails fast: it sends
// POST {BaseURL}/models/{model}:generateContent with an empty JSON object,
// which no server can turn into a reply (so it costs nothing), the key in
// the x-goog-api-key header. A key refused (401, 403, or 400 with the
// reason API_KEY_INVALID) is an *llm.Error matching llm.ErrUnauthorized;
// a model the API does not know is an *llm.Error saying so; 404, 405, 501
// or an HTML page otherwise is ErrNotGeminiEndpoint; no connection wraps
// llm.ErrUnreachable; 5xx is an *llm.Error. Any other answer, such as 400
// for the missing contents, shows the API is there. Bound it with ctx.
func (c *Client) Ping(ctx context.Context) error {
	u := c.cfg.BaseURL + "/models/" + url.PathEscape(c.cfg.Model) + ":generateContent"
	s, body, absent, err := httpretry.Probe(ctx, c.http, u, http.Header{"X-Goog-Api-Key": {c.cfg.APIKey}})
	e := errorBody(body)
	switch {
	case err != nil && ctx.Err() != nil:
		return fmt.Errorf("checking the model server at %s: %w", c.cfg.BaseURL, httpretry.CtxErr(ctx))
	case err != nil:
		return fmt.Errorf("%w: cannot reach %s (%w)", llm.ErrUnreachable, u, err)
	case s == http.StatusNotFound && e.Status == "NOT_FOUND":
		le := c.newError(s, e, 1)
		le.Message = fmt.Sprintf("the Gemini API at %s does not know the model %q: %s", c.cfg.BaseURL, c.cfg.Model, le.Message)
		return le
	case absent != "":
		return fmt.Errorf("%w: POST %s answered %s, not Google's Gemini API; for an OpenAI-compatible server use --api chat",
			ErrNotGeminiEndpoint, u, absent)
	case s == http.StatusUnauthorized || s == http.StatusForbidden || s >= 500:
		return c.newError(s, e, 1)
	case s == http.StatusBadRequest && kindOf(s, e) == llm.KindAuth:
		return c.newError(s, e, 1)
	}
	return nil
}
