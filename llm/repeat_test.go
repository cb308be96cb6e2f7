package llm

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

func TestLooping(t *testing.T) {
	same := "Lantern is a small static-site server and builder.\n"
	cases := []struct {
		name, text, want string
		loops            bool
	}{
		{"a thought and a run", "I will look.\n" + strings.Repeat(same, 7), "I will look.\n" + strings.TrimSuffix(same, "\n"), true},
		{"five are not enough", strings.Repeat(same, 5), "", false},
		{"the last line still coming", strings.Repeat(same, 5) + "Lantern is a small", "", false},
		{"short lines repeat freely", strings.Repeat("|---|\n", 20), "", false},
		{"blank lines", strings.Repeat("\n", 20), "", false},
		{"a run broken", strings.Repeat(same, 3) + "other line here, long enough\n" + strings.Repeat(same, 3), "", false},
		{"no newline", "just text", "", false},
	}
	for _, c := range cases {
		got, loops := looping(c.text)
		if loops != c.loops || (loops && got != c.want) {
			t.Errorf("%s: looping = %q, %v; want %q, %v", c.name, got, loops, c.want, c.loops)
		}
		if !loops && got != c.text {
			t.Errorf("%s: the text was changed though it does not loop", c.name)
		}
	}
}

func TestToolsDropped(t *testing.T) {
	tools := []contract.ToolDef{{Name: "click", Description: "Click an element.", Parameters: []byte(strings.Repeat("x", 12000))}}
	msgs := []contract.Message{{Role: contract.RoleUser, Content: strings.Repeat("y", 3600)}}
	cases := []struct {
		name   string
		prompt int
		calls  int
		want   bool
	}{
		{"the messages alone", 1150, 0, true},
		{"messages and tools", 4000, 0, false},
		{"tools rendered compactly", 2200, 0, false},
		{"a call came", 1150, 1, false},
		{"no usage", 0, 0, false},
	}
	for _, c := range cases {
		reply := contract.Reply{Usage: contract.Usage{PromptTokens: c.prompt}, ToolCalls: make([]contract.ToolCall, c.calls)}
		if got := toolsDropped(contract.Request{Messages: msgs, Tools: tools}, reply); got != c.want {
			t.Errorf("%s: toolsDropped = %v, want %v", c.name, got, c.want)
		}
	}
	if toolsDropped(contract.Request{Messages: msgs}, contract.Reply{Usage: contract.Usage{PromptTokens: 1}}) {
		t.Error("a request without tools cannot drop them")
	}
}
