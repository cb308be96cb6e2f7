package modelserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

const (
	defaultChunkSize = 8
	defaultDripEvery = 100 * time.Millisecond
)

// exchange is one request being answered.
type exchange struct {
	s   *Server
	w   http.ResponseWriter
	r   *http.Request
	rec *Recorded
	id  string
}

// wait pauses for d (forever when d <= 0). It returns false when the client
// went away or the server is closing, and records which.
func (x *exchange) wait(d time.Duration) bool {
	var tick <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		tick = t.C
	}
	select {
	case <-tick:
		return true
	case <-x.s.closing:
		return false
	case <-x.r.Context().Done():
		x.gone()
		return false
	}
}

// gone records that the client went away, unless the server is closing.
func (x *exchange) gone() { x.rec.finish(!x.s.isClosing()) }

func (x *exchange) flush() bool {
	if err := http.NewResponseController(x.w).Flush(); err != nil {
		x.gone()
		return false
	}
	return true
}

// write sends raw bytes and flushes them.
func (x *exchange) write(b []byte) bool {
	if _, err := x.w.Write(b); err != nil {
		x.gone()
		return false
	}
	return x.flush()
}

// event sends one server-sent event "data: <v as JSON>".
func (x *exchange) event(v any) bool {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("modelserver: marshal chunk: %v", err)) // our own types always marshal
	}
	return x.write([]byte("data: " + string(b) + "\n\n"))
}

func (x *exchange) startSSE() bool {
	h := x.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	x.w.WriteHeader(http.StatusOK)
	return x.flush()
}

func (x *exchange) serve(t Turn) {
	x.id = fmt.Sprintf("chatcmpl-modelserver-%d", x.rec.Index)
	if t.Delay > 0 && !x.wait(t.Delay) {
		return
	}
	switch t.Fault {
	case NoHeaders:
		x.wait(0)
		return
	case Reset:
		x.reset()
		return
	case RateLimited:
		writeError(x.w, http.StatusTooManyRequests, "requests", "rate_limit_exceeded",
			orDefault(t.Text, "modelserver: rate limit reached, slow down"), t.RetryAfter)
		return
	case Unauthorized:
		writeError(x.w, statusOr(t.Status, http.StatusUnauthorized), "invalid_request_error", "invalid_api_key",
			orDefault(t.Text, "invalid api key"), 0)
		return
	case ServerError:
		writeError(x.w, statusOr(t.Status, http.StatusInternalServerError), "server_error", "",
			orDefault(t.Text, "modelserver: injected server error"), 0)
		return
	case None:
		if t.Raw != nil {
			x.raw(t)
			return
		}
		if t.Status >= 400 {
			writeError(x.w, t.Status, "invalid_request_error", "", orDefault(t.Text, http.StatusText(t.Status)), 0)
			return
		}
	}
	if x.rec.Req.Stream {
		x.stream(t)
	} else {
		x.plain(t)
	}
}

// raw writes the turn's bytes as they are.
func (x *exchange) raw(t Turn) {
	h := x.w.Header()
	status := statusOr(t.Status, http.StatusOK)
	if status >= 400 {
		h.Set("Content-Type", "application/json")
	} else {
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
	}
	x.w.WriteHeader(status)
	if !x.flush() {
		return
	}
	pieces := [][]byte{t.Raw}
	if t.ChunkSize > 0 {
		pieces = nil
		for b := t.Raw; len(b) > 0; {
			n := min(t.ChunkSize, len(b))
			pieces = append(pieces, b[:n])
			b = b[n:]
		}
	}
	for i, p := range pieces {
		if i > 0 && t.Every > 0 && !x.wait(t.Every) {
			return
		}
		if !x.write(p) {
			return
		}
	}
	x.rec.finish(false)
}

// reset closes the connection with a TCP RST before writing anything.
func (x *exchange) reset() {
	conn, _, err := http.NewResponseController(x.w).Hijack()
	if err != nil {
		writeError(x.w, http.StatusInternalServerError, "server_error", "", "modelserver: cannot hijack to reset: "+err.Error(), 0)
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// stream answers a streaming request, injecting the turn's fault if any.
func (x *exchange) stream(t Turn) {
	if !x.startSSE() || !x.keepAlive(t) {
		return
	}
	switch t.Fault {
	case Malformed:
		x.streamMalformed()
	case Drip:
		x.streamDrip(t)
	case StallMidStream:
		x.streamStall(t)
	default:
		x.streamReply(t)
	}
}

// keepAlive sends the turn's SSE comment lines, Every apart. It returns
// false when the client went away or the server is closing.
func (x *exchange) keepAlive(t Turn) bool {
	for i := range t.KeepAlive {
		if i > 0 && t.Every > 0 && !x.wait(t.Every) {
			return false
		}
		if !x.write([]byte(": keep-alive\n\n")) {
			return false
		}
	}
	return true
}

// streamMalformed sends a first chunk, then one that is not JSON.
func (x *exchange) streamMalformed() {
	if x.event(x.chunk(delta{Role: "assistant", Content: ptr("")}, nil)) {
		x.write([]byte("data: {not json\n\n"))
	}
}

// streamDrip sends a chunk with an empty delta every dripEvery, until the
// client goes away or the server closes.
func (x *exchange) streamDrip(t Turn) {
	every := dripEvery(t)
	for x.wait(every) && x.event(x.chunk(delta{}, nil)) {
	}
}

// streamStall sends a first chunk and the start of a tool call (the turn's
// first, or a click), then blocks until the client goes away or the server
// closes.
func (x *exchange) streamStall(t Turn) {
	c := Call{Name: "click", Args: `{"ref":"e1"}`}
	if len(t.ToolCalls) > 0 {
		c = t.ToolCalls[0]
	}
	var first string
	if pieces := split(c.Args, chunkSize(t)); len(pieces) > 0 {
		first = pieces[0]
	}
	if !x.event(x.chunk(delta{Role: "assistant", Content: ptr("")}, nil)) ||
		!x.event(x.chunk(delta{ToolCalls: []deltaCall{{Index: 0, ID: x.callID(), Type: "function",
			Function: deltaFunc{Name: c.Name, Arguments: first}}}}, nil)) {
		return
	}
	x.wait(0)
}

// streamReply sends the turn's reply as chunks, Every apart, then [DONE].
func (x *exchange) streamReply(t Turn) {
	for i, ev := range x.replyChunks(t) {
		if i > 0 && t.Every > 0 && !x.wait(t.Every) {
			return
		}
		if !x.event(ev) {
			return
		}
	}
	if x.write([]byte("data: [DONE]\n\n")) {
		x.rec.finish(false)
	}
}

// replyChunks returns the chunks of a turn's reply: the role, the text in
// pieces, the tool calls, the finish reason and, when the request asked
// for it, the usage.
func (x *exchange) replyChunks(t Turn) []any {
	events := []any{x.chunk(delta{Role: "assistant", Content: ptr("")}, nil)}
	for _, piece := range split(t.Text, chunkSize(t)) {
		events = append(events, x.chunk(delta{Content: ptr(piece)}, nil))
	}
	events = append(events, x.callChunks(t)...)
	events = append(events, x.chunk(delta{}, ptr(finishReason(t))))
	if x.rec.Req.IncludeUsage {
		u := estimateUsage(x.rec.Req, x.s.previous(x.rec), t)
		events = append(events, chunk{ID: x.id, Object: "chat.completion.chunk", Created: x.rec.Start.Unix(),
			Model: x.rec.Req.Model, Choices: []chunkChoice{}, Usage: &u})
	}
	return events
}

// dripEvery is the pause between a Drip turn's chunks.
func dripEvery(t Turn) time.Duration {
	if t.Every <= 0 {
		return defaultDripEvery
	}
	return t.Every
}

// callChunks returns the chunks of the turn's tool calls: for each call a
// first chunk with its index, ID, type and name, then its arguments in
// pieces, call after call or interleaved.
func (x *exchange) callChunks(t Turn) []any {
	var heads []any
	pieces := make([][]string, len(t.ToolCalls))
	for i, c := range t.ToolCalls {
		heads = append(heads, x.chunk(delta{ToolCalls: []deltaCall{{Index: i, ID: x.callID(), Type: "function",
			Function: deltaFunc{Name: c.Name}}}}, nil))
		pieces[i] = split(c.Args, chunkSize(t))
	}
	argChunk := func(i int, p string) any {
		return x.chunk(delta{ToolCalls: []deltaCall{{Index: i, Function: deltaFunc{Arguments: p}}}}, nil)
	}
	var out []any
	if !t.Interleave {
		for i := range t.ToolCalls {
			out = append(out, heads[i])
			for _, p := range pieces[i] {
				out = append(out, argChunk(i, p))
			}
		}
		return out
	}
	out = append(out, heads...)
	for round := 0; ; round++ {
		sent := false
		for i := range pieces {
			if round < len(pieces[i]) {
				out = append(out, argChunk(i, pieces[i][round]))
				sent = true
			}
		}
		if !sent {
			return out
		}
	}
}

// plain answers a non-streaming request.
func (x *exchange) plain(t Turn) {
	switch t.Fault {
	case Malformed, StallMidStream, Drip:
		x.w.Header().Set("Content-Type", "application/json")
		x.w.WriteHeader(http.StatusOK)
		switch t.Fault {
		case Malformed:
			x.write([]byte("{not json"))
		case StallMidStream:
			if x.write([]byte(`{"id":"` + x.id + `",`)) {
				x.wait(0)
			}
		case Drip:
			every := dripEvery(t)
			for x.flush() && x.wait(every) && x.write([]byte(" ")) {
			}
		}
		return
	}
	msg := message{Role: "assistant", Content: ptr(t.Text)}
	for _, c := range t.ToolCalls {
		msg.ToolCalls = append(msg.ToolCalls, deltaCall{ID: x.callID(), Type: "function",
			Function: deltaFunc{Name: c.Name, Arguments: c.Args}})
	}
	u := estimateUsage(x.rec.Req, x.s.previous(x.rec), t)
	resp := completion{ID: x.id, Object: "chat.completion", Created: x.rec.Start.Unix(), Model: x.rec.Req.Model,
		Choices: []completionChoice{{Message: msg, FinishReason: finishReason(t)}}, Usage: u}
	b, err := json.Marshal(resp)
	if err != nil {
		panic(fmt.Sprintf("modelserver: marshal completion: %v", err))
	}
	x.w.Header().Set("Content-Type", "application/json")
	if x.write(b) {
		x.rec.finish(false)
	}
}

func (x *exchange) chunk(d delta, finish *string) chunk {
	return chunk{ID: x.id, Object: "chat.completion.chunk", Created: x.rec.Start.Unix(), Model: x.rec.Req.Model,
		Choices: []chunkChoice{{Delta: d, FinishReason: finish}}}
}

func (x *exchange) callID() string { return "call_" + strconv.FormatInt(x.s.callSeq.Add(1), 10) }

// writeError writes an OpenAI-style error response.
func writeError(w http.ResponseWriter, status int, typ, code, msg string, retryAfter time.Duration) {
	body := errorBody{Error: errorDetail{Message: msg, Type: typ}}
	if code != "" {
		body.Error.Code = &code
	}
	b, _ := json.Marshal(body) // plain strings always marshal
	h := w.Header()
	h.Set("Content-Type", "application/json")
	if retryAfter > 0 {
		secs := (retryAfter + time.Second - 1) / time.Second
		h.Set("Retry-After", strconv.FormatInt(int64(secs), 10))
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, string(b)+"\n")
}

func finishReason(t Turn) string {
	if len(t.ToolCalls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

func chunkSize(t Turn) int {
	if t.ChunkSize > 0 {
		return t.ChunkSize
	}
	return defaultChunkSize
}

// split cuts s into pieces of at most n bytes without cutting a UTF-8
// character (a character longer than n makes a piece of its own).
func split(s string, n int) []string {
	var out []string
	for len(s) > 0 {
		end := min(n, len(s))
		for end < len(s) && !utf8.RuneStart(s[end]) {
			end++
		}
		out = append(out, s[:end])
		s = s[end:]
	}
	return out
}

// estimateUsage counts about one token per four bytes, unless the turn
// gives its usage. As a provider's prompt cache would, it reports the
// tokens of the request's start that repeat the previous request's
// (prev, nil for the first) as cached.
func estimateUsage(req, prev *ChatRequest, t Turn) usage {
	if u := t.Usage; u != nil {
		w := usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.PromptTokens + u.CompletionTokens}
		if u.CachedTokens > 0 {
			w.PromptTokensDetails = &tokenDetails{CachedTokens: u.CachedTokens}
		}
		return w
	}
	text := promptText(req)
	in, out := len(text), len(t.Text)
	for _, c := range t.ToolCalls {
		out += len(c.Name) + len(c.Args)
	}
	u := usage{PromptTokens: (in + 3) / 4, CompletionTokens: (out + 3) / 4}
	u.TotalTokens = u.PromptTokens + u.CompletionTokens
	if prev != nil {
		p := promptText(prev)
		n := 0
		for n < min(len(p), len(text)) && p[n] == text[n] {
			n++
		}
		if n/4 > 0 {
			u.PromptTokensDetails = &tokenDetails{CachedTokens: n / 4}
		}
	}
	return u
}

// promptText is what the estimate counts of a request: each message's
// role, text, tool call id and calls, in order.
func promptText(req *ChatRequest) string {
	var b strings.Builder
	for _, m := range req.Messages {
		b.WriteString(m.Role + m.Content + m.ToolCallID)
		for _, c := range m.ToolCalls {
			b.WriteString(c.ID + c.Name + c.Arguments)
		}
	}
	return b.String()
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func statusOr(s, def int) int {
	if s == 0 {
		return def
	}
	return s
}

func ptr[T any](v T) *T { return &v }
