package suite

import (
	"encoding/json"
	"net/url"
	"strings"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
)

// Task is one eval task as loaded from a task file.
type Task struct {
	// ID is unique among the tasks loaded together.
	ID string
	// Suite is the name of the file's suite ("suite:" or the file's base
	// name without extension).
	Suite string
	// File and Line locate the task's definition, for messages.
	File string
	Line int

	// Site is the built-in site the task runs on (see sites.New); Path is
	// where it starts on that site, "/" by default. URL is set instead of
	// Site for a task on any other web page.
	Site string
	Path string
	URL  string

	Instruction string
	Tags        []string
	// Limits bound the task's run; its non-zero fields override the
	// runner's (limits:).
	Limits  agent.Limits
	Secrets map[string]string
	// Navigation confines the task's browser (allowed_domains:,
	// blocked_domains:), added to the runner's own policy.
	Navigation contract.NavigationPolicy
	// Checks all must pass for the task to pass.
	Checks []Check
	// Reference is the reference solution, nil when the task has none.
	Reference *Reference
	// Schema is the answer's JSON Schema (schema:), nil for a text answer.
	Schema json.RawMessage
	// StorageState is a Playwright storage-state file (storage_state:,
	// relative to the task file) loaded into the task's browser.
	StorageState string
}

// StartURL returns where the task starts: siteBase (the root URL the task's
// site is served at, e.g. "http://127.0.0.1:41234") joined with Path for a
// site task, URL otherwise.
func (t *Task) StartURL(siteBase string) string {
	if t.Site == "" {
		return t.URL
	}
	return joinURL(siteBase, t.Path)
}

// AgentTask returns the task as package agent runs it.
func (t *Task) AgentTask(siteBase string) agent.Task {
	var sec map[string]string
	if len(t.Secrets) > 0 {
		sec = make(map[string]string, len(t.Secrets))
		for k, v := range t.Secrets {
			sec[k] = v
		}
	}
	return agent.Task{URL: t.StartURL(siteBase), Instruction: t.Instruction, Secrets: sec, AnswerSchema: t.Schema}
}

// AgentOptions returns the agent options for the limits the task sets.
func (t *Task) AgentOptions() []agent.Option {
	return []agent.Option{agent.WithLimits(t.Limits), agent.WithNavigation(t.Navigation)}
}

// joinURL resolves ref (a path such as "/cart", or an absolute URL) against
// base.
func joinURL(base, ref string) string {
	if ref == "" {
		ref = "/"
	}
	r, err := url.Parse(ref)
	if err != nil {
		return strings.TrimRight(base, "/") + ref
	}
	if r.IsAbs() {
		return ref
	}
	b, err := url.Parse(base)
	if err != nil || b.Host == "" {
		return strings.TrimRight(base, "/") + ref
	}
	return b.ResolveReference(r).String()
}
