package llm

import (
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		header, value string
		want          time.Duration
		ok            bool
	}{
		{"Retry-After", "1", time.Second, true},
		{"Retry-After", " 0 ", 0, true},
		{"Retry-After", "1.5", 1500 * time.Millisecond, true},
		{"Retry-After", now.Add(7 * time.Second).Format(http.TimeFormat), 7 * time.Second, true},
		{"Retry-After", now.Add(-time.Hour).Format(http.TimeFormat), 0, true},
		{"Retry-After", "soon", 0, false},
		{"Retry-After", "-3", 0, false},
		{"Retry-After-Ms", "250", 250 * time.Millisecond, true},
		{"X-Other", "5", 0, false},
	}
	for _, tt := range tests {
		h := http.Header{}
		h.Set(tt.header, tt.value)
		got, ok := retryAfter(h, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: %q = %s, %v; want %s, %v", tt.header, tt.value, got, ok, tt.want, tt.ok)
		}
	}
}

func TestBackoffIsJitteredExponentialAndCapped(t *testing.T) {
	d := &retryDoer{baseDelay: 100 * time.Millisecond, maxDelay: time.Second}
	for attempt, full := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond,
		3: 400 * time.Millisecond, 4: 800 * time.Millisecond, 5: time.Second, 80: time.Second} {
		seen := map[time.Duration]bool{}
		for range 50 {
			got := d.backoff(attempt)
			if got < full/2 || got > full {
				t.Fatalf("attempt %d: backoff %s outside [%s, %s]", attempt, got, full/2, full)
			}
			seen[got] = true
		}
		if len(seen) < 2 {
			t.Errorf("attempt %d: no jitter", attempt)
		}
	}
}

func TestAssemblerWithoutIndexes(t *testing.T) {
	// Some servers send no index: a new ID starts a new call.
	var a assembler
	frag := func(id, name, args string) openai.ChatCompletionStreamResponse {
		return openai.ChatCompletionStreamResponse{Choices: []openai.ChatCompletionStreamChoice{{
			Delta: openai.ChatCompletionStreamChoiceDelta{ToolCalls: []openai.ToolCall{{ID: id, Function: openai.FunctionCall{Name: name, Arguments: args}}}},
		}}}
	}
	a.add(frag("", "click", `{"ref"`))
	a.add(frag("", "", `:"e1"}`))
	a.add(frag("b", "back", `{}`))
	r := a.reply()
	if len(r.ToolCalls) != 2 || r.ToolCalls[0].Name != "click" || r.ToolCalls[0].Arguments != `{"ref":"e1"}` ||
		r.ToolCalls[0].ID != "call_0" || r.ToolCalls[1].ID != "b" || r.ToolCalls[1].Arguments != "{}" {
		t.Errorf("calls = %+v", r.ToolCalls)
	}
}

func TestTransient(t *testing.T) {
	if transient(http.ErrHandlerTimeout) {
		t.Error("an unrelated error counted as transient")
	}
}

func TestClassifyStreamError(t *testing.T) {
	c := &Client{cfg: Config{APIKey: "sk-x"}}
	err := c.classify(fmt.Errorf("error, %w", &openai.APIError{Message: "overloaded for sk-x", Type: "server_error"}), 1)
	var e *Error
	if !errors.As(err, &e) || e.Status != 0 || err.Error() != "model server sent an error in the stream: overloaded for [REDACTED]" {
		t.Errorf("err = %v", err)
	}
}
