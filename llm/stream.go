package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/webagent/webagent/contract"
)

// Wire forms of stream chunks, decoded leniently: every field may be null
// or missing, a call's arguments may be a string or an object, and an
// error object may come in any chunk.
type (
	wireChunk struct {
		Choices []wireChoice `json:"choices"`
		Usage   *wireUsage   `json:"usage"`
		XGroq   *struct {
			Usage *wireUsage `json:"usage"`
		} `json:"x_groq"` // Groq sends the usage here
	}
	wireChoice struct {
		Index        *int       `json:"index"`
		Delta        *wireDelta `json:"delta"`
		Message      *wireDelta `json:"message"` // a server that ignored "stream": true
		FinishReason *string    `json:"finish_reason"`
	}
	wireDelta struct {
		Content          json.RawMessage `json:"content"`
		ReasoningContent *string         `json:"reasoning_content"` // DeepSeek, llama.cpp, vLLM
		Reasoning        *string         `json:"reasoning"`         // Ollama, OpenRouter
		ToolCalls        []wireDeltaCall `json:"tool_calls"`
		FunctionCall     *wireFunc       `json:"function_call"` // the legacy form
	}
	wireDeltaCall struct {
		Index        *int            `json:"index"`
		ID           *string         `json:"id"`
		Type         *string         `json:"type"`
		Function     *wireFunc       `json:"function"`
		ExtraContent json.RawMessage `json:"extra_content"` // Gemini 3: thought_signature
	}
	wireFunc struct {
		Name      *string         `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	wireUsage struct {
		PromptTokens        int `json:"prompt_tokens"`
		CompletionTokens    int `json:"completion_tokens"`
		TotalTokens         int `json:"total_tokens"`
		PromptTokensDetails *struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"` // OpenAI and most others
		PromptCacheHitTokens int `json:"prompt_cache_hit_tokens"` // DeepSeek
	}
)

// failureFinish are finish reasons that mean the reply failed: whatever
// partial call it holds is discarded, never executed.
var failureFinish = map[string]Kind{"error": KindProviderDown, "content_filter": KindRefused}

// readStream reads the events of a 2xx response until [DONE] or the end
// of the body and assembles the reply; it also returns the finish reason.
// An error object in any event, an "error:" field or a failure finish
// reason ends the reply with an *Error carrying the provider's message,
// and the calls read so far are dropped.
func (c *Client) readStream(body io.Reader, attempts int) (contract.Reply, string, error) {
	var acc assembler
	sr := newSSEReader(body)
	for {
		ev, err := sr.next()
		if errors.Is(err, io.EOF) || ev.done {
			return acc.finishReply()
		}
		if err != nil {
			return contract.Reply{}, "", err
		}
		if ev.errorField {
			pe, ok := parseProviderError(ev.data)
			if !ok {
				pe = providerError{Message: strings.TrimSpace(string(ev.data))}
				var inner providerError
				var m map[string]json.RawMessage
				if json.Unmarshal(ev.data, &m) == nil {
					inner.fill(m)
					if inner.Message != "" {
						pe = inner
					}
				}
			}
			return contract.Reply{}, "", c.newError(0, pe, attempts)
		}
		if pe, ok := parseProviderError(ev.data); ok {
			return contract.Reply{}, "", c.newError(0, pe, attempts)
		}
		var chunk wireChunk
		if err := json.Unmarshal(ev.data, &chunk); err != nil {
			return contract.Reply{}, "", &Error{Kind: KindMalformed, Attempts: attempts,
				Message: fmt.Sprintf("malformed stream chunk %q", c.redact(clip(string(ev.data), 120))),
				Err:     fmt.Errorf("%w: %w", contract.ErrMalformedReply, err)}
		}
		acc.add(chunk)
		if k, bad := failureFinish[acc.finish]; bad {
			return contract.Reply{}, "", c.newError(0, providerError{Message: fmt.Sprintf(
				"the reply ended with finish_reason %q; its partial output was discarded", acc.finish), Type: string(k)}, attempts)
		}
		if acc.stopLooping() {
			c.log.Warn("the model wrote one line again and again; its reply was stopped there (finish repetition)")
			return acc.finishReply()
		}
	}
}

// assembler rebuilds a reply from stream chunks. Tool-call fragments are
// matched by their index, so fragments of several calls may interleave.
type assembler struct {
	text      strings.Builder
	reasoning strings.Builder
	calls     []*partCall
	byKey     map[int]*partCall
	last      int // key of the latest fragment
	usage     contract.Usage
	finish    string
}

type partCall struct {
	id, name string
	args     strings.Builder
	whole    string // arguments sent as a JSON object
	extra    json.RawMessage
}

func (a *assembler) add(chunk wireChunk) {
	if chunk.Usage == nil && chunk.XGroq != nil {
		chunk.Usage = chunk.XGroq.Usage
	}
	if u := chunk.Usage; u != nil && (u.PromptTokens > 0 || u.CompletionTokens > 0 || u.TotalTokens > 0) {
		a.usage = contract.Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens,
			CachedTokens: u.PromptCacheHitTokens}
		if d := u.PromptTokensDetails; d != nil && d.CachedTokens > 0 {
			a.usage.CachedTokens = d.CachedTokens
		}
		if a.usage.TotalTokens == 0 {
			a.usage.TotalTokens = u.PromptTokens + u.CompletionTokens
		}
	}
	for _, ch := range chunk.Choices {
		if ch.Index != nil && *ch.Index != 0 { // only one choice is asked for
			continue
		}
		d := ch.Delta
		if d == nil {
			d = ch.Message
		}
		if d != nil {
			a.text.WriteString(contentText(d.Content))
			if d.ReasoningContent != nil {
				a.reasoning.WriteString(*d.ReasoningContent)
			} else if d.Reasoning != nil {
				a.reasoning.WriteString(*d.Reasoning)
			}
			for _, tc := range d.ToolCalls {
				a.addCall(tc)
			}
			if fc := d.FunctionCall; fc != nil {
				zero := 0
				a.addCall(wireDeltaCall{Index: &zero, Function: fc})
			}
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			a.finish = *ch.FinishReason
		}
	}
}

// contentText reads content sent as a string, null, or a list of parts.
func contentText(raw json.RawMessage) string {
	if isNull(raw) {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return ""
}

func (a *assembler) addCall(tc wireDeltaCall) {
	if a.byKey == nil {
		a.byKey = make(map[int]*partCall)
	}
	id := ""
	if tc.ID != nil {
		id = *tc.ID
	}
	key := a.last
	switch {
	case tc.Index != nil:
		key = *tc.Index
	case len(a.calls) == 0 || (id != "" && id != a.byKey[a.last].id):
		// A server that omits the index: a new ID starts a new call.
		// Negative keys cannot clash with real indexes.
		key = -1 - len(a.calls)
	}
	// Old Ollama sends several complete calls, each at index 0 with
	// its own ID: a different ID at a used index is a new call.
	if prev := a.byKey[key]; prev != nil && id != "" && prev.id != "" && id != prev.id {
		key = -1 - len(a.calls)
	}
	a.last = key
	call := a.byKey[key]
	if call == nil {
		call = &partCall{}
		a.byKey[key] = call
		a.calls = append(a.calls, call)
	}
	if id != "" {
		call.id = id
	}
	if len(tc.ExtraContent) > 0 && !isNull(tc.ExtraContent) {
		call.extra = append(json.RawMessage(nil), tc.ExtraContent...)
	}
	if f := tc.Function; f != nil {
		if f.Name != nil && *f.Name != "" {
			call.name = *f.Name
		}
		raw := bytes.TrimSpace(f.Arguments)
		switch {
		case len(raw) == 0 || isNull(raw):
		case raw[0] == '"':
			var s string
			if json.Unmarshal(raw, &s) == nil {
				call.args.WriteString(s)
			}
		default: // an object: the whole arguments at once (MiniMax and others)
			var buf bytes.Buffer
			if json.Compact(&buf, raw) == nil {
				call.whole = buf.String()
			}
		}
	}
}

// stopLooping cuts a reply of text alone that repeats one line (looping)
// after the line's first occurrence and marks it finished; the caller
// stops reading, which closes the stream and so the server's generation.
func (a *assembler) stopLooping() bool {
	if len(a.calls) > 0 || a.finish != "" {
		return false
	}
	cut, loops := looping(a.text.String())
	if !loops {
		return false
	}
	a.text.Reset()
	a.text.WriteString(cut)
	a.finish = finishRepetition
	return true
}

// finishReply returns the reply once the stream has ended. A call cut
// off before its arguments were complete (the stream ended without a
// finish reason, or at the token limit) is discarded, and the reply is
// reported as malformed.
func (a *assembler) finishReply() (contract.Reply, string, error) {
	r := contract.Reply{Content: a.text.String(), Usage: a.usage, Reasoning: a.reasoning.String()}
	for _, c := range a.calls {
		args := c.whole
		if args == "" {
			args = firstValue(c.args.String())
		}
		if (a.finish == "" || a.finish == "length") && strings.TrimSpace(args) != "" && !json.Valid([]byte(args)) {
			why := "the stream ended"
			if a.finish == "length" {
				why = "the reply reached its token limit"
			}
			return contract.Reply{}, a.finish, &Error{Kind: KindMalformed, Err: contract.ErrMalformedReply,
				Message: fmt.Sprintf("%s in the middle of a call to %q; the partial call was discarded", why, c.name)}
		}
		// Some local servers send no ID: Complete gives one.
		r.ToolCalls = append(r.ToolCalls, contract.ToolCall{ID: c.id, Name: c.name, Arguments: args, Extra: c.extra})
	}
	return r, a.finish, nil
}

// firstValue keeps the first complete JSON value of arguments that hold
// more than one (vLLM's tool parser repeats the arguments on its final
// flush: {"ref":"e1"}{"ref":"e1"}). Anything else is returned as is.
func firstValue(s string) string {
	t := strings.TrimSpace(s)
	if t == "" || json.Valid([]byte(t)) {
		return s
	}
	dec := json.NewDecoder(strings.NewReader(t))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil || len(v) == 0 || v[0] != '{' {
		return s
	}
	return string(v)
}
