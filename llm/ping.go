package llm

import (
	"context"
	"fmt"
	"io"
	"net/http"
)

// Ping checks that the model server answers and accepts the key, with
// GET {BaseURL}/models and no retries, so that a command can fail fast. It
// returns an error wrapping ErrUnreachable when no connection can be made,
// and an *Error matching ErrUnauthorized for 401 or 403. Other 4xx answers
// (some servers have no /models) count as success; 5xx answers are an
// *Error. Bound it with ctx.
func (c *Client) Ping(ctx context.Context) error {
	url := c.cfg.BaseURL + "/models"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	req.Header.Set("Accept", "application/json")
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("checking the model server at %s: %w", c.cfg.BaseURL, ctxErr(ctx))
		}
		return fmt.Errorf("%w: cannot reach %s (%w); is the server running? e.g. `ollama serve`, or set --base-url",
			ErrUnreachable, url, netCause(err))
	}
	defer resp.Body.Close()
	switch s := resp.StatusCode; {
	case s >= 200 && s <= 299:
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20)) // let the connection be reused
		return nil
	case s == http.StatusUnauthorized || s == http.StatusForbidden:
		return c.responseError(resp, 1)
	case s >= 400 && s <= 499:
		return nil
	default:
		return c.responseError(resp, 1)
	}
}
