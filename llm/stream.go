package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/webagent/webagent/agent"
)

// readStream reads chunks until [DONE] (or the end of the body) and
// assembles the reply. It also returns the finish reason.
func readStream(s *openai.ChatCompletionStream, w *streamWatch) (agent.Reply, string, error) {
	var acc assembler
	for {
		raw, err := s.RecvRaw()
		if errors.Is(err, io.EOF) {
			return acc.reply(), acc.finish, nil
		}
		if err != nil {
			return agent.Reply{}, "", err
		}
		w.touch()
		var chunk openai.ChatCompletionStreamResponse
		if err := json.Unmarshal(raw, &chunk); err != nil {
			return agent.Reply{}, "", fmt.Errorf("model server sent a malformed stream chunk %q: %w: %w", clip(string(raw), 120), agent.ErrMalformedReply, err)
		}
		acc.add(chunk)
	}
}

// assembler rebuilds a reply from stream chunks. Tool-call fragments are
// matched by their index, so fragments of several calls may interleave.
type assembler struct {
	text   strings.Builder
	calls  []*agent.ToolCall
	byKey  map[int]*agent.ToolCall
	last   int // key of the latest fragment
	usage  agent.Usage
	finish string
}

func (a *assembler) add(chunk openai.ChatCompletionStreamResponse) {
	if u := chunk.Usage; u != nil {
		a.usage = agent.Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
	}
	for _, ch := range chunk.Choices {
		if ch.Index != 0 { // only one choice is asked for
			continue
		}
		a.text.WriteString(ch.Delta.Content)
		for _, tc := range ch.Delta.ToolCalls {
			a.addCall(tc)
		}
		if ch.FinishReason != "" {
			a.finish = string(ch.FinishReason)
		}
	}
}

func (a *assembler) addCall(tc openai.ToolCall) {
	if a.byKey == nil {
		a.byKey = make(map[int]*agent.ToolCall)
	}
	key := a.last
	switch {
	case tc.Index != nil:
		key = *tc.Index
	case len(a.calls) == 0 || (tc.ID != "" && tc.ID != a.byKey[a.last].ID):
		// A server that omits the index: a new ID starts a new call.
		// Negative keys cannot clash with real indexes.
		key = -1 - len(a.calls)
	}
	a.last = key
	call := a.byKey[key]
	if call == nil {
		call = &agent.ToolCall{}
		a.byKey[key] = call
		a.calls = append(a.calls, call)
	}
	if tc.ID != "" {
		call.ID = tc.ID
	}
	if tc.Function.Name != "" {
		call.Name = tc.Function.Name
	}
	call.Arguments += tc.Function.Arguments
}

func (a *assembler) reply() agent.Reply {
	r := agent.Reply{Content: a.text.String(), Usage: a.usage}
	for i, c := range a.calls {
		tc := *c
		if tc.ID == "" {
			tc.ID = "call_" + strconv.Itoa(i) // some local servers send none; the loop needs one
		}
		r.ToolCalls = append(r.ToolCalls, tc)
	}
	return r
}
