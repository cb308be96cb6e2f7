package llm_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/llm"
)

// A base URL without /v1 whose /models passes but whose chat-completions
// path is not an API fails the preflight with "did you mean …/v1?".
func TestPingChatPath(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		models int
		chat   func(w http.ResponseWriter)
		want   string // "" for success
	}{
		{"html 501", http.StatusNotFound, func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusNotImplemented)
			_, _ = w.Write([]byte("<html><body>Unsupported method ('POST')</body></html>"))
		}, "answered 501 Not Implemented with an HTML page"},
		{"json 404", http.StatusOK, func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"error":"page not found"}`))
		}, "answered 404 Not Found"},
		{"html 200", http.StatusOK, func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte("<!doctype html><title>app</title>"))
		}, "with an HTML page"},
		{"an API that wants a model", http.StatusOK, func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":{"message":"you must provide a model parameter"}}`))
		}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var chats int
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch {
				case r.Method == http.MethodGet && r.URL.Path == "/models":
					w.WriteHeader(c.models)
				case r.Method == http.MethodPost && r.URL.Path == "/chat/completions":
					chats++
					c.chat(w)
				default:
					http.NotFound(w, r)
				}
			}))
			defer srv.Close()
			cl, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "m"})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			err = cl.Ping(ctx)
			if chats != 1 {
				t.Errorf("%d chat requests, want 1", chats)
			}
			if c.want == "" {
				if err != nil {
					t.Fatalf("Ping = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, llm.ErrNotChatEndpoint) || !strings.Contains(err.Error(), c.want) ||
				!strings.Contains(err.Error(), "did you mean "+srv.URL+"/v1?") {
				t.Fatalf("Ping = %v, want ErrNotChatEndpoint saying %q and did you mean %s/v1?", err, c.want, srv.URL)
			}
		})
	}
}
