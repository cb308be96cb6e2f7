package modelserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Google's Gemini API (POST /v1beta/models/{model}:streamGenerateContent
// ?alt=sse, and :generateContent unstreamed), the key in the
// x-goog-api-key header (WithAPIKey's key is looked for there). A
// request is read into a ChatRequest as /v1/messages is: systemInstruction a system message, a model turn an
// assistant message (its functionCall parts its calls), a user turn's
// functionResponse parts tool messages (response.output their text,
// inlineData parts their images) and its text a user message. A call
// without an id gets one, which the functionResponse of that name in the
// next turn answers. The Turn is streamed as the API reference documents:
// data: events, each a GenerateContentResponse whose candidate holds the
// next parts (the text in pieces, each call whole, with its id), the last
// with finishReason STOP and usageMetadata. Errors have Google's shape,
// {"error": {"code", "message", "status", "details"}}.
//
// A request that declares the computerUse tool gets ChatRequest.Toolset
// ToolsetComputer; Gemini's computer use actions are function calls of
// predefined names (click_at, type_text_at, ... on a 1000x1000 grid), so
// a Turn makes them as it makes any call. The Responder's calls of
// webagent's tools are not yet expressed as those gestures, as
// computerMembers and computerActions do for the other two APIs.

// GeminiBaseURL is the Gemini API's root with its version,
// "http://127.0.0.1:PORT/v1beta".
func (s *Server) GeminiBaseURL() string { return strings.TrimSuffix(s.baseURL, "/v1") + "/v1beta" }

type gemPart struct {
	Text         string         `json:"text,omitempty"`
	Thought      bool           `json:"thought,omitempty"`
	InlineData   *gemBlob       `json:"inlineData,omitempty"`
	FunctionCall *gemCall       `json:"functionCall,omitempty"`
	FunctionResp *gemCallResult `json:"functionResponse,omitempty"`
}

type gemBlob struct {
	MIMEType string `json:"mimeType"`
	Data     string `json:"data"`
}

type gemCall struct {
	ID   string         `json:"id,omitempty"`
	Name string         `json:"name"`
	Args map[string]any `json:"args"`
}

type gemCallResult struct {
	ID       string         `json:"id,omitempty"`
	Name     string         `json:"name"`
	Response map[string]any `json:"response"`
	Parts    []gemPart      `json:"parts,omitempty"`
}

type gemContent struct {
	Role  string    `json:"role"`
	Parts []gemPart `json:"parts"`
}

type gemRequest struct {
	Contents          []gemContent `json:"contents"`
	SystemInstruction *gemContent  `json:"systemInstruction"`
	Tools             []struct {
		FunctionDeclarations []struct {
			Name                 string          `json:"name"`
			Description          string          `json:"description"`
			Parameters           json.RawMessage `json:"parameters"`
			ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
		} `json:"functionDeclarations"`
		ComputerUse *struct {
			Environment string `json:"environment"`
		} `json:"computerUse"`
	} `json:"tools"`
	GenerationConfig struct {
		Temperature *float64 `json:"temperature"`
	} `json:"generationConfig"`
}

func decodeGeminiRequest(body []byte, model string, stream bool) (*ChatRequest, error) {
	req := &ChatRequest{Raw: json.RawMessage(body), Model: model, Stream: stream, IncludeUsage: true}
	var w gemRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return req, fmt.Errorf("request body is not a GenerateContentRequest: %w", err)
	}
	if len(w.Contents) == 0 {
		return req, fmt.Errorf("* GenerateContentRequest.contents: contents is not specified")
	}
	req.Temperature = w.GenerationConfig.Temperature
	if w.SystemInstruction != nil {
		if text, _ := gemText(w.SystemInstruction.Parts); text != "" {
			req.Messages = append(req.Messages, Message{Role: "system", Content: text})
		}
	}
	var pending []MessageCall // the calls of the last model turn, by order
	for i, c := range w.Contents {
		switch c.Role {
		case "model":
			text, _ := gemText(c.Parts)
			m := Message{Role: "assistant", Content: text}
			for j, p := range c.Parts {
				if fc := p.FunctionCall; fc != nil {
					args, _ := json.Marshal(fc.Args)
					id := fc.ID
					if id == "" {
						id = fmt.Sprintf("gemini-%d-%d", i, j)
					}
					m.ToolCalls = append(m.ToolCalls, MessageCall{ID: id, Name: fc.Name, Arguments: string(args)})
				}
			}
			pending = m.ToolCalls
			req.Messages = append(req.Messages, m)
		case "user", "":
			var msgs []Message
			msgs, pending = gemUserTurn(c.Parts, pending)
			req.Messages = append(req.Messages, msgs...)
		default:
			return req, fmt.Errorf("* GenerateContentRequest.contents[%d].role: %q is neither user nor model", i, c.Role)
		}
	}
	req.Screen[0], req.Screen[1] = screenOf(w.Contents)
	for _, t := range w.Tools {
		if t.ComputerUse != nil {
			req.Toolset = ToolsetComputer
			for _, n := range computerExpressed {
				req.Tools = append(req.Tools, Tool{Name: n, Description: "done by the computer use functions at the refs' points"})
			}
		}
		for _, d := range t.FunctionDeclarations {
			params := d.ParametersJSONSchema
			if len(params) == 0 {
				params = d.Parameters
			}
			req.Tools = append(req.Tools, Tool{Name: d.Name, Description: d.Description, Parameters: params})
		}
	}
	return req, nil
}

// gemUserTurn is a user turn: its function responses as tool messages,
// each answering the pending call of its id (else the first of its
// name), then each text part a user message (the client joins the
// loop's messages into one turn), with the images after it.
func gemUserTurn(parts []gemPart, pending []MessageCall) ([]Message, []MessageCall) {
	var out, users []Message
	for _, p := range parts {
		if fr := p.FunctionResp; fr != nil {
			id := fr.ID
			for k, c := range pending {
				if c.ID == fr.ID || id == "" && c.Name == fr.Name {
					id = c.ID
					pending = append(pending[:k:k], pending[k+1:]...)
					break
				}
			}
			text, ok := fr.Response["output"].(string)
			if !ok {
				text, ok = fr.Response["error"].(string) // a failed call's
			}
			if !ok {
				b, _ := json.Marshal(fr.Response)
				text = string(b)
			}
			_, images := gemText(fr.Parts)
			out = append(out, Message{Role: "tool", Content: text, ToolCallID: id, Images: images})
			continue
		}
		if p.InlineData == nil || len(users) == 0 {
			users = append(users, Message{Role: "user", Content: p.Text})
		}
		if p.InlineData != nil {
			users[len(users)-1].Images++
		}
	}
	return append(out, users...), pending
}

// gemText joins the text of parts (not the thoughts) and counts their
// images.
func gemText(parts []gemPart) (string, int) {
	var b strings.Builder
	images := 0
	for _, p := range parts {
		if !p.Thought {
			b.WriteString(p.Text)
		}
		if p.InlineData != nil {
			images++
		}
	}
	return b.String(), images
}

func (s *Server) handleGemini(w http.ResponseWriter, r *http.Request) {
	if !s.enter() {
		writeGemError(w, http.StatusServiceUnavailable, "UNAVAILABLE", "", "modelserver: server is closing", 0)
		return
	}
	defer s.handlers.Done()
	model, method, _ := strings.Cut(r.PathValue("call"), ":")
	stream := method == "streamGenerateContent"
	if !stream && method != "generateContent" {
		writeGemError(w, http.StatusNotFound, "NOT_FOUND", "", fmt.Sprintf("method %q of models/%s is not found", method, model), 0)
		return
	}
	body, err := io.ReadAll(r.Body)
	req, derr := decodeGeminiRequest(body, model, stream)
	if err != nil {
		derr = fmt.Errorf("reading request body: %w", err)
	}
	rec := s.record(req, r.Header.Clone())
	defer rec.finish(false)
	switch {
	case s.opts.apiKey != "" && r.Header.Get("x-goog-api-key") != s.opts.apiKey:
		writeGemError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "API_KEY_INVALID", "API key not valid. Please pass a valid API key.", 0)
	case derr != nil:
		writeGemError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "", "modelserver: "+derr.Error(), 0)
	default:
		t := s.responder.Respond(req)
		switch {
		case t.Fault == RateLimited:
			writeGemError(w, http.StatusTooManyRequests, "RESOURCE_EXHAUSTED", "", orDefault(t.Text, "Resource has been exhausted (e.g. check quota)."), t.RetryAfter)
		case t.Fault == Unauthorized:
			writeGemError(w, statusOr(t.Status, http.StatusBadRequest), "INVALID_ARGUMENT", "API_KEY_INVALID", "API key not valid. Please pass a valid API key.", 0)
		case t.Fault != None || t.Status >= 400:
			status := statusOr(t.Status, http.StatusInternalServerError)
			writeGemError(w, status, gemStatus(status), "", orDefault(t.Text, "modelserver: "+t.Fault.String()), 0)
		default:
			s.sendGemini(w, req, s.previous(rec), t)
		}
	}
}

// gemStatus is Google's status name of an HTTP status.
func gemStatus(status int) string {
	switch {
	case status == http.StatusServiceUnavailable:
		return "UNAVAILABLE"
	case status == http.StatusTooManyRequests:
		return "RESOURCE_EXHAUSTED"
	case status == http.StatusUnauthorized:
		return "UNAUTHENTICATED"
	case status == http.StatusForbidden:
		return "PERMISSION_DENIED"
	case status >= 500:
		return "INTERNAL"
	}
	return "INVALID_ARGUMENT"
}

// sendGemini sends t as a stream of GenerateContentResponses, or as one.
func (s *Server) sendGemini(w http.ResponseWriter, req, prev *ChatRequest, t Turn) {
	u := estimateUsage(req, prev, t)
	usage := map[string]any{"promptTokenCount": u.PromptTokens, "candidatesTokenCount": u.CompletionTokens, "totalTokenCount": u.TotalTokens}
	if d := u.PromptTokensDetails; d != nil && d.CachedTokens > 0 {
		usage["cachedContentTokenCount"] = d.CachedTokens
	}
	calls := t.ToolCalls
	if req.Toolset == ToolsetComputer {
		calls = geminiActions(calls, req)
	}
	var parts []map[string]any
	for _, c := range calls {
		var args map[string]any
		if err := json.Unmarshal([]byte(c.Args), &args); err != nil {
			args = map[string]any{"_unreadable": c.Args}
		}
		parts = append(parts, map[string]any{"functionCall": map[string]any{
			"id": fmt.Sprintf("call_%d", s.callSeq.Add(1)), "name": c.Name, "args": args}})
	}
	version := "modelserver-" + req.Model
	final := func(parts []map[string]any) map[string]any {
		if parts == nil {
			parts = []map[string]any{}
		}
		return map[string]any{"candidates": []any{map[string]any{"index": 0, "finishReason": "STOP",
			"content": map[string]any{"role": "model", "parts": parts}}}, "usageMetadata": usage, "modelVersion": version}
	}
	if !req.Stream {
		all := parts
		if t.Text != "" {
			all = append([]map[string]any{{"text": t.Text}}, parts...)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(final(all))
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	send := func(data map[string]any) {
		raw, _ := json.Marshal(data)
		fmt.Fprintf(w, "data: %s\r\n\r\n", raw)
		if fl != nil {
			fl.Flush()
		}
	}
	for _, p := range split(t.Text, 64) {
		send(map[string]any{"candidates": []any{map[string]any{"index": 0,
			"content": map[string]any{"role": "model", "parts": []any{map[string]any{"text": p}}}}},
			"usageMetadata": map[string]any{"promptTokenCount": u.PromptTokens}, "modelVersion": version})
	}
	send(final(parts))
}

// writeGemError writes an error as Google's APIs do.
func writeGemError(w http.ResponseWriter, code int, status, reason, msg string, retryAfter time.Duration) {
	e := map[string]any{"code": code, "message": msg, "status": status}
	if reason != "" {
		e["details"] = []any{map[string]any{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": reason,
			"domain": "googleapis.com"}}
	}
	b, _ := json.Marshal(map[string]any{"error": e})
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	if retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(int64((retryAfter+time.Second-1)/time.Second), 10))
	}
	w.WriteHeader(code)
	_, _ = w.Write(append(b, '\n'))
}
