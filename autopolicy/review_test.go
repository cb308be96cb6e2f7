package autopolicy_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/autopolicy"
	"github.com/webagent/webagent/policy"
)

// fixed is a deriver that proposes one read-only site.
type fixed struct{}

func (fixed) Derive(context.Context, agent.Task) (*agent.DerivedPolicy, error) {
	return autopolicy.Proposal{Sites: []autopolicy.Site{{Site: "wiki.example", May: []string{"read"}}}}.Policy()
}

// The person's word: yes takes the proposal, no stops the task, edit
// takes the edited text once it parses (a broken edit is shown again).
func TestReviewer(t *testing.T) {
	answers := func(lines ...string) agent.Human {
		return agent.HumanFunc(func(context.Context, string) (string, error) {
			if len(lines) == 0 {
				return "", errors.New("no more answers")
			}
			a := lines[0]
			lines = lines[1:]
			return a, nil
		})
	}
	var shown strings.Builder
	r := autopolicy.Reviewer{Deriver: fixed{}, Person: answers("yes"), Out: &shown}
	dp, err := r.Derive(context.Background(), agent.Task{})
	if err != nil || dp.Policy.Sites[0] != "wiki.example" || !strings.Contains(shown.String(), "wiki.example") {
		t.Errorf("yes: %v, %v; shown %q", dp, err, shown.String())
	}
	r = autopolicy.Reviewer{Deriver: fixed{}, Person: answers("no"), Out: io.Discard}
	if _, err := r.Derive(context.Background(), agent.Task{}); !errors.Is(err, autopolicy.ErrRefused) {
		t.Errorf("no: %v", err)
	}
	edits := []string{"version: 1\nrules: [oops", "version: 1\nsites: [shop.example]\nrules:\n  - when: {}\n    then: allow\n"}
	shown.Reset()
	r = autopolicy.Reviewer{Deriver: fixed{}, Person: answers("edit", "edit", "yes"), Out: &shown,
		Edit: func(context.Context, string) (string, error) { e := edits[0]; edits = edits[1:]; return e, nil }}
	dp, err = r.Derive(context.Background(), agent.Task{})
	if err != nil || dp.Policy.Sites[0] != "shop.example" || dp.Policy.Decide(policy.Action{Tool: "click", URL: "https://shop.example/"}).Decision != policy.Allow {
		t.Errorf("edit: %+v, %v", dp, err)
	}
	if !strings.Contains(shown.String(), "cannot be used") {
		t.Errorf("the broken edit was not reported: %q", shown.String())
	}
}
