package agent_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/webagent/webagent/agent"
)

func TestCheckTask(t *testing.T) {
	for _, c := range []struct {
		task  agent.Task
		names []string
		says  string // "" when it passes
	}{
		{agent.Task{URL: "https://x.org", Instruction: "sign in with <secret>pw</secret>", Secrets: map[string]string{"pw": "v"}}, nil, ""},
		{agent.Task{URL: "https://x.org", Instruction: "sign in with <secret>pw</secret>", Secrets: map[string]string{"pw@https://x.org": "v"}}, nil, ""},
		{agent.Task{URL: "https://x.org", Instruction: "sign in with <secret>pw</secret>"}, []string{"pw"}, ""},
		{agent.Task{URL: "https://x.org", Instruction: "sign in with <secret>pw</secret>"}, nil, "<secret>pw</secret> but no secret pw is declared"},
		{agent.Task{URL: "https://x.org", Instruction: "use <secret>pw</secret>", Secrets: map[string]string{"other": "v"}}, nil, "no secret pw"},
		{agent.Task{URL: "file:///etc/passwd", Instruction: "read it"}, nil, "not http or https"},
		{agent.Task{URL: "https://", Instruction: "go"}, nil, "no host"},
		{agent.Task{URL: "https://x.org", Instruction: "  "}, nil, "empty"},
		{agent.Task{Instruction: "a blank page is fine"}, nil, ""},
	} {
		err := agent.CheckTask(c.task, c.names...)
		var te *agent.TaskError
		switch {
		case c.says == "" && err != nil:
			t.Errorf("%+v: %v", c.task, err)
		case c.says != "" && (!errors.As(err, &te) || !strings.Contains(err.Error(), c.says)):
			t.Errorf("%+v: %v, want a TaskError saying %q", c.task, err, c.says)
		}
	}
}
