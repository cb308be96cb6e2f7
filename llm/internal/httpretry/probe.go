package httpretry

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
)

// Probe is a client's preflight: one POST of an empty JSON object to url
// with header, no retries, which no server can turn into a model call (so
// it costs nothing). It returns the status and (at most 64 KiB of) the
// body; absent is set, with what the server answered, when the answer
// shows there is no such API there (404, 405, 501, or an HTML page). err
// is set only when no answer came.
func Probe(ctx context.Context, hc *http.Client, url string, header http.Header) (status int, body []byte, absent string, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader("{}"))
	if err != nil {
		return 0, nil, "", err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return 0, nil, "", err
	}
	defer resp.Body.Close()
	body, _ = io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	s := resp.StatusCode
	if s == http.StatusNotFound || s == http.StatusMethodNotAllowed || s == http.StatusNotImplemented || mt == "text/html" {
		absent = fmt.Sprintf("%d %s", s, http.StatusText(s))
		if mt == "text/html" {
			absent += " with an HTML page"
		}
	}
	return s, body, absent, nil
}
