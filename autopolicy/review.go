package autopolicy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/policy"
)

// ErrRefused: the person refused the proposed policy.
var ErrRefused = errors.New("the person refused the policy drawn from the task")

// Reviewer shows the policy Deriver proposes to a person, who accepts it,
// edits it (Edit, when set) or refuses it (ErrRefused: the task does not
// start). It is an agent.PolicyDeriver.
type Reviewer struct {
	Deriver agent.PolicyDeriver
	// Person answers the question (agent's terminal human); Out shows
	// the policy.
	Person agent.Human
	Out    io.Writer
	// Edit lets the person change the policy's text; nil offers no
	// editing.
	Edit func(ctx context.Context, text string) (string, error)
}

// Derive asks for a policy and for the person's word on it.
func (r Reviewer) Derive(ctx context.Context, task agent.Task) (*agent.DerivedPolicy, error) {
	dp, err := r.Deriver.Derive(ctx, task)
	if err != nil {
		return nil, err
	}
	for {
		fmt.Fprintf(r.Out, "\nThe policy drawn from the task (--policy auto):\n%s\n", dp.Text)
		q := "Use this policy? yes, or no to stop"
		if r.Edit != nil {
			q = "Use this policy? yes, edit, or no to stop"
		}
		ans, err := r.Person.Ask(ctx, q)
		if err != nil {
			return nil, err
		}
		switch a := strings.ToLower(strings.TrimSpace(ans)); {
		case agent.IsYes(a):
			return dp, nil
		case r.Edit != nil && (a == "e" || a == "edit"):
			text, err := r.Edit(ctx, dp.Text)
			if err != nil {
				return nil, fmt.Errorf("editing the policy: %w", err)
			}
			pol, err := policy.Parse("--policy auto (edited)", []byte(text))
			if err != nil {
				fmt.Fprintf(r.Out, "The edited policy cannot be used: %v\n", err)
				continue
			}
			dp = &agent.DerivedPolicy{Policy: pol, Text: text}
		default:
			return nil, ErrRefused
		}
	}
}

// EditWith returns an Edit that opens the text in editor (a command line,
// as $VISUAL or $EDITOR holds it) on the terminal, and reads it back.
func EditWith(editor string) func(ctx context.Context, text string) (string, error) {
	return func(ctx context.Context, text string) (string, error) {
		f, err := os.CreateTemp("", "webagent-policy-*.yaml")
		if err != nil {
			return "", err
		}
		defer os.Remove(f.Name())
		if _, err := f.WriteString(text); err != nil {
			f.Close()
			return "", err
		}
		if err := f.Close(); err != nil {
			return "", err
		}
		args := strings.Fields(editor)
		cmd := exec.CommandContext(ctx, args[0], append(args[1:], f.Name())...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("%s: %w", editor, err)
		}
		out, err := os.ReadFile(f.Name())
		return string(out), err
	}
}
