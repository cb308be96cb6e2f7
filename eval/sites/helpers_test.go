package sites

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// client is a test client for one site served by httptest.
type client struct {
	t   *testing.T
	srv *httptest.Server
}

func serve(t *testing.T, h http.Handler) *client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &client{t: t, srv: srv}
}

// get fetches path (following redirects) and returns the status and body.
func (c *client) get(path string) (int, string) {
	c.t.Helper()
	resp, err := c.srv.Client().Get(c.srv.URL + path)
	if err != nil {
		c.t.Fatalf("GET %s: %v", path, err)
	}
	return readAll(c.t, resp)
}

// post submits a form (following redirects) and returns the final status,
// path and body.
func (c *client) post(path string, form url.Values) (int, string, string) {
	c.t.Helper()
	resp, err := c.srv.Client().PostForm(c.srv.URL+path, form)
	if err != nil {
		c.t.Fatalf("POST %s: %v", path, err)
	}
	final := resp.Request.URL.RequestURI()
	code, body := readAll(c.t, resp)
	return code, final, body
}

func (c *client) postJSON(path, body string) int {
	c.t.Helper()
	resp, err := c.srv.Client().Post(c.srv.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		c.t.Fatalf("POST %s: %v", path, err)
	}
	code, _ := readAll(c.t, resp)
	return code
}

func readAll(t *testing.T, resp *http.Response) (int, string) {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading body: %v", err)
	}
	return resp.StatusCode, string(b)
}

func mustContain(t *testing.T, what, body string, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if !strings.Contains(body, s) {
			t.Errorf("%s: missing %q", what, s)
		}
	}
}

func mustNotContain(t *testing.T, what, body string, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if strings.Contains(body, s) {
			t.Errorf("%s: unexpected %q", what, s)
		}
	}
}
