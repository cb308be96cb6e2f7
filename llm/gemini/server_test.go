package gemini_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

const testKey = "AIzaSy-test-key-0123456789"

// apiServer speaks the Gemini API as Google's reference documents it:
// POST /v1beta/models/{model}:streamGenerateContent?alt=sse with a
// GenerateContentRequest (contents of role user or model, each with
// parts; systemInstruction; tools with functionDeclarations or
// computerUse; generationConfig), the key in the x-goog-api-key header;
// answered with server-sent events, each a "data:" line holding a
// GenerateContentResponse. A key that is not valid is 400 with the reason
// API_KEY_INVALID. It checks the request's shape and records it.
type apiServer struct {
	*httptest.Server
	t       *testing.T
	respond func(req *apiRequest, n int) turn
	mu      sync.Mutex
	reqs    []*apiRequest
	urls    []string
}

// apiRequest is a request as the server read it.
type apiRequest struct {
	Contents          []content        `json:"contents"`
	SystemInstruction *content         `json:"systemInstruction"`
	Tools             []map[string]any `json:"tools"`
	GenerationConfig  map[string]any   `json:"generationConfig"`
	Model             string           `json:"-"`
	Raw               string           `json:"-"`
}

type content struct {
	Role  string           `json:"role"`
	Parts []map[string]any `json:"parts"`
}

// turn is one answer: chunks, or a failure status with its body and
// headers.
type turn struct {
	chunks []map[string]any
	status int
	body   string
	header map[string]string
	stall  bool
	cut    bool // the connection is closed after the chunks, mid-stream
}

func startAPI(t *testing.T, respond func(req *apiRequest, n int) turn) *apiServer {
	t.Helper()
	s := &apiServer{t: t, respond: respond}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *apiServer) baseURL() string { return s.URL + "/v1beta" }

func (s *apiServer) requests() []*apiRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*apiRequest(nil), s.reqs...)
}

func (s *apiServer) seenURLs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.urls...)
}

func googleError(w http.ResponseWriter, code int, status, reason, msg string) {
	e := map[string]any{"code": code, "message": msg, "status": status}
	if reason != "" {
		e["details"] = []any{map[string]any{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": reason, "domain": "googleapis.com"}}
	}
	b, _ := json.Marshal(map[string]any{"error": e})
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(code)
	_, _ = w.Write(b)
}

func (s *apiServer) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.urls = append(s.urls, r.URL.String())
	s.mu.Unlock()
	model, method, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/v1beta/models/"), ":")
	if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/v1beta/models/") ||
		(method != "streamGenerateContent" && method != "generateContent") {
		http.Error(w, "<html><body>404 Not Found</body></html>", http.StatusNotFound)
		return
	}
	if r.URL.Query().Has("key") {
		s.t.Errorf("the key was sent in the URL: %s", r.URL.Redacted())
	}
	if r.Header.Get("x-goog-api-key") != testKey {
		googleError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "API_KEY_INVALID", "API key not valid. Please pass a valid API key.")
		return
	}
	if model == "no-such-model" {
		googleError(w, http.StatusNotFound, "NOT_FOUND", "", "models/no-such-model is not found for API version v1beta, or is not supported for generateContent.")
		return
	}
	req := &apiRequest{Model: model, Raw: string(raw)}
	if err := json.Unmarshal(raw, req); err != nil {
		googleError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "", "Invalid JSON payload received. "+err.Error())
		return
	}
	if len(req.Contents) == 0 { // as the API answers the client's Ping
		googleError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "", "* GenerateContentRequest.contents: contents is not specified")
		return
	}
	if method != "streamGenerateContent" || r.URL.Query().Get("alt") != "sse" {
		s.t.Errorf("%s %s: want :streamGenerateContent?alt=sse", r.Method, r.URL)
	}
	if msg := checkRequest(req); msg != "" {
		s.t.Errorf("request not in the documented shape: %s: %s", msg, raw)
		googleError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "", msg)
		return
	}
	s.mu.Lock()
	n := len(s.reqs)
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()
	tn := s.respond(req, n)
	for k, v := range tn.header {
		w.Header().Set(k, v)
	}
	if tn.status != 0 {
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		w.WriteHeader(tn.status)
		_, _ = io.WriteString(w, tn.body)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	flusher, _ := w.(http.Flusher)
	for _, c := range tn.chunks {
		b, _ := json.Marshal(c)
		fmt.Fprintf(w, "data: %s\r\n\r\n", b)
		flusher.Flush()
	}
	if tn.stall {
		<-r.Context().Done()
	}
	if tn.cut {
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			_ = conn.Close() // the chunked body never ends
		}
	}
}

// checkRequest checks what the reference requires of the fields used.
func checkRequest(req *apiRequest) string {
	for i, c := range req.Contents {
		if c.Role != "user" && c.Role != "model" {
			return fmt.Sprintf("contents[%d] of role %q", i, c.Role)
		}
		if len(c.Parts) == 0 {
			return fmt.Sprintf("contents[%d] without parts", i)
		}
		for _, p := range c.Parts {
			if fr, ok := p["functionResponse"].(map[string]any); ok && (fr["name"] == nil || fr["response"] == nil) {
				return fmt.Sprintf("functionResponse %v lacks name or response", fr)
			}
			if fc, ok := p["functionCall"].(map[string]any); ok && fc["name"] == nil {
				return fmt.Sprintf("functionCall %v lacks its name", fc)
			}
		}
	}
	for _, tool := range req.Tools {
		if cu, ok := tool["computerUse"].(map[string]any); ok {
			if cu["environment"] != "ENVIRONMENT_BROWSER" {
				return fmt.Sprintf("computerUse %v is not ENVIRONMENT_BROWSER", cu)
			}
			continue
		}
		decls, ok := tool["functionDeclarations"].([]any)
		if !ok || len(decls) == 0 {
			return fmt.Sprintf("tool %v has neither computerUse nor functionDeclarations", tool)
		}
	}
	return ""
}

// call is a function call a scripted reply makes.
type call struct {
	id, name string
	args     map[string]any
}

// reply is a scripted model reply.
type reply struct {
	thought, signature string
	text               string
	calls              []call
	finish             string // "" is STOP
}

// chunks renders a reply as the stream of GenerateContentResponses the
// API sends: the thought, the text in two pieces, each call whole (the
// first signed), then the finish with the usage.
func (rp reply) chunks() []map[string]any {
	chunk := func(parts ...map[string]any) map[string]any {
		return map[string]any{"candidates": []any{map[string]any{"index": 0,
			"content": map[string]any{"role": "model", "parts": parts}}},
			"usageMetadata": map[string]any{"promptTokenCount": 1200}, "modelVersion": "gemini-test"}
	}
	var out []map[string]any
	if rp.thought != "" {
		out = append(out, chunk(map[string]any{"text": rp.thought, "thought": true}))
	}
	if rp.text != "" {
		half := len(rp.text) / 2
		out = append(out, chunk(map[string]any{"text": rp.text[:half]}), chunk(map[string]any{"text": rp.text[half:]}))
	}
	for i, c := range rp.calls {
		fc := map[string]any{"name": c.name, "args": c.args}
		if c.id != "" {
			fc["id"] = c.id
		}
		p := map[string]any{"functionCall": fc}
		if i == 0 && rp.signature != "" {
			p["thoughtSignature"] = rp.signature
		}
		out = append(out, chunk(p))
	}
	finish := rp.finish
	if finish == "" {
		finish = "STOP"
	}
	last := chunk()
	last["candidates"].([]any)[0].(map[string]any)["finishReason"] = finish
	last["usageMetadata"] = map[string]any{"promptTokenCount": 1200, "cachedContentTokenCount": 1024,
		"candidatesTokenCount": 50, "thoughtsTokenCount": 30, "totalTokenCount": 1280}
	return append(out, last)
}

// partsOf returns the parts of the request's contents that hold key.
func (r *apiRequest) partsOf(key string) []map[string]any {
	var out []map[string]any
	for _, c := range r.Contents {
		for _, p := range c.Parts {
			if _, ok := p[key]; ok {
				out = append(out, p)
			}
		}
	}
	return out
}
