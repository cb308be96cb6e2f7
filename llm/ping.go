package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/webagent/webagent/llm/internal/httpretry"
)

// ErrNotChatEndpoint marks a base URL whose chat-completions path is not an
// OpenAI-compatible API: it answers 404, 405 or 501, or with an HTML page.
// Its message suggests the base URL with /v1 when that is what is missing.
var ErrNotChatEndpoint = errors.New("llm: the base URL has no chat-completions API")

// Ping checks that the model server answers and accepts the key, with
// GET {BaseURL}/models and no retries, so that a command can fail fast. It
// returns an error wrapping ErrUnreachable when no connection can be made,
// and an *Error matching ErrUnauthorized for 401 or 403. Other 4xx answers
// (some servers have no /models) count as success; 5xx answers are an
// *Error. For a base URL not ending in /v1 it also checks that the
// chat-completions path is an API (checkChatPath), and returns
// ErrNotChatEndpoint with a "did you mean …/v1?" if not. Bound it with ctx.
func (c *Client) Ping(ctx context.Context) error {
	resp, err := c.preflight(ctx, http.MethodGet, c.cfg.BaseURL+"/models", nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	switch s := resp.StatusCode; {
	case s >= 200 && s <= 299:
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20)) // let the connection be reused
		return c.checkChatPath(ctx)
	case s == http.StatusUnauthorized || s == http.StatusForbidden:
		return c.responseError(resp, 1)
	case s >= 400 && s <= 499:
		return c.checkChatPath(ctx)
	default:
		return c.responseError(resp, 1)
	}
}

// checkChatPath guards against the commonest wrong base URL, a server's
// root without /v1 (http://localhost:11434 for Ollama): its GET /models can
// pass while POST /chat/completions is a 404 or an HTML page. For a base
// URL whose path does not end in /v1 it sends POST {BaseURL}/chat/completions
// with an empty JSON object, which no server can turn into a completion
// (so it costs nothing), and returns ErrNotChatEndpoint if the answer is
// 404, 405 or 501 or an HTML page. Any other answer, such as 400 for the
// missing model and messages, shows an API is there.
func (c *Client) checkChatPath(ctx context.Context) error {
	base := strings.TrimRight(c.cfg.BaseURL, "/")
	if strings.HasSuffix(base, "/v1") {
		return nil
	}
	url := base + "/chat/completions"
	resp, err := c.preflight(ctx, http.MethodPost, url, strings.NewReader("{}"))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	html := mt == "text/html"
	switch s := resp.StatusCode; {
	case s == http.StatusUnauthorized || s == http.StatusForbidden:
		return &Error{Status: s, Message: "the chat-completions endpoint refused the request", Attempts: 1}
	case s == http.StatusNotFound || s == http.StatusMethodNotAllowed || s == http.StatusNotImplemented || html:
		what := fmt.Sprintf("%d %s", s, http.StatusText(s))
		if html {
			what += " with an HTML page"
		}
		return fmt.Errorf("%w: POST %s answered %s, not an OpenAI-compatible API; did you mean %s/v1?",
			ErrNotChatEndpoint, url, what, base)
	}
	return nil
}

// preflight sends one request of the preflight checks, with the key if
// there is one. A connection that cannot be made wraps ErrUnreachable (the
// caller says what to do about it: it knows which server the user meant).
func (c *Client) preflight(ctx context.Context, method, url string, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("checking the model server at %s: %w", c.cfg.BaseURL, httpretry.CtxErr(ctx))
		}
		return nil, fmt.Errorf("%w: cannot reach %s (%w)", ErrUnreachable, url, netCause(err))
	}
	return resp, nil
}
