package modelserver

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// Fault is a failure the server injects instead of a normal reply.
type Fault int

// The faults a Turn can inject.
const (
	// None sends the turn's text and tool calls normally.
	None Fault = iota
	// NoHeaders accepts the request and never writes a response; the
	// handler blocks until the client goes away or the server closes.
	NoHeaders
	// StallMidStream sends the headers and a couple of chunks, including
	// the start of a tool call, then blocks until the client goes away or
	// the server closes.
	StallMidStream
	// Drip sends the headers, then a chunk with an empty delta every
	// Turn.Every, forever: a stream that never finishes but never goes
	// silent. It ends when the client goes away or the server closes.
	Drip
	// RateLimited answers 429 with a Retry-After header (whole seconds,
	// from Turn.RetryAfter, omitted when zero) and an OpenAI-style error
	// body with code rate_limit_exceeded.
	RateLimited
	// ServerError answers 500, or Turn.Status when set, with an
	// OpenAI-style error body whose message is Turn.Text when set.
	ServerError
	// Unauthorized answers 401, or Turn.Status when set, with an
	// OpenAI-style error body "invalid api key".
	Unauthorized
	// Malformed sends the headers and then a chunk that is not JSON.
	Malformed
	// Reset closes the connection abruptly (TCP RST) before writing
	// anything.
	Reset
)

var faultNames = [...]string{
	None:           "none",
	NoHeaders:      "no-headers",
	StallMidStream: "stall-mid-stream",
	Drip:           "drip",
	RateLimited:    "rate-limited",
	ServerError:    "server-error",
	Unauthorized:   "unauthorized",
	Malformed:      "malformed",
	Reset:          "reset",
}

// String returns the fault's name, e.g. "stall-mid-stream".
func (f Fault) String() string {
	if f >= 0 && int(f) < len(faultNames) {
		return faultNames[f]
	}
	return fmt.Sprintf("fault(%d)", int(f))
}

// Call is a tool call the server sends. Args is the raw JSON text of the
// arguments; it may be invalid on purpose. The server generates the call's
// ID.
type Call struct {
	Name string
	Args string
}

// ToolCall returns a Call whose Args is args marshalled to JSON. A string,
// []byte or json.RawMessage is used as is, so that invalid JSON can be sent
// on purpose. It panics if args cannot be marshalled, like
// regexp.MustCompile, since scripts are written by hand.
func ToolCall(name string, args any) Call {
	switch a := args.(type) {
	case string:
		return Call{Name: name, Args: a}
	case []byte:
		return Call{Name: name, Args: string(a)}
	case json.RawMessage:
		return Call{Name: name, Args: string(a)}
	}
	b, err := json.Marshal(args)
	if err != nil {
		panic(fmt.Sprintf("modelserver.ToolCall(%q): %v", name, err))
	}
	return Call{Name: name, Args: string(b)}
}

// Turn is one reply of the server.
type Turn struct {
	// Text is the assistant's text. For ServerError it is the error
	// message.
	Text string
	// ToolCalls are the calls the assistant makes, sent after Text.
	ToolCalls []Call
	// Fault injects a failure instead of the normal reply.
	Fault Fault
	// Status overrides the HTTP status of ServerError and Unauthorized.
	// With Fault None, a status of 400 or more answers with an error body
	// like ServerError.
	Status int
	// RetryAfter is sent as the Retry-After header of RateLimited, in
	// whole seconds (rounded up).
	RetryAfter time.Duration
	// Every is the pause between chunks: 100ms by default for Drip, no
	// pause by default for a normal stream. A normal stream with Every set
	// is slow but healthy.
	Every time.Duration
	// ChunkSize splits text and tool-call arguments into pieces of at most
	// this many bytes (never inside a UTF-8 character), 8 by default, so
	// that arguments always arrive across several chunks.
	ChunkSize int
	// Interleave sends the argument pieces of several tool calls in
	// turn (call 0, call 1, call 0, ...) instead of one call after the
	// other.
	Interleave bool
	// KeepAlive sends this many SSE comment lines (": keep-alive") after
	// the headers of a stream and before its first chunk, Every apart, as
	// proxies and some providers do while the model is busy.
	KeepAlive int
	// Raw, when set, is written verbatim as the response body, in pieces
	// of ChunkSize bytes when that is set (Every apart), with status
	// Status (200 when 0) and Content-Type text/event-stream, or
	// application/json for a status of 400 or more: the exact bytes a
	// particular server sends, for dialect tests. Fault must be None.
	Raw []byte
	// Delay holds the response before any header is written. It ends early
	// when the client goes away or the server closes.
	Delay time.Duration
	// Usage, when set, is the usage the reply reports (with cached tokens
	// as OpenAI reports them, prompt_tokens_details.cached_tokens) instead
	// of the estimate of about one token per four bytes.
	Usage *Usage
}

// Usage is the token count a Turn reports.
type Usage struct {
	PromptTokens, CompletionTokens int
	// CachedTokens is the part of PromptTokens read from a prompt cache.
	CachedTokens int
}

// Responder decides the server's reply to a chat request. It may be called
// from several goroutines at once.
type Responder interface {
	Respond(req *ChatRequest) Turn
}

// ResponderFunc adapts a function to the Responder interface.
type ResponderFunc func(req *ChatRequest) Turn

// Respond calls f(req).
func (f ResponderFunc) Respond(req *ChatRequest) Turn { return f(req) }

// Script returns a Responder that answers with turns in order, one per
// request. Once they are used up it answers every request with a 500 error
// saying that the script ran out.
func Script(turns ...Turn) Responder {
	return &script{turns: turns}
}

type script struct {
	mu    sync.Mutex
	turns []Turn
	next  int
}

func (s *script) Respond(*ChatRequest) Turn {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next >= len(s.turns) {
		return Turn{
			Fault: ServerError,
			Text:  fmt.Sprintf("modelserver: the script ran out: all %d turns were used", len(s.turns)),
		}
	}
	t := s.turns[s.next]
	s.next++
	return t
}
