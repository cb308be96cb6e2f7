package agent

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/webagent/webagent/secret"
)

// TaskError is a task refused before it starts: what is wrong with it and
// how to fix it. Nothing has run.
type TaskError struct{ Msg string }

func (e *TaskError) Error() string { return e.Msg }

// secretRef is a secret named in a task: <secret>NAME</secret>.
var secretRef = regexp.MustCompile(`<secret>([A-Za-z0-9_.-]+)</secret>`)

// SecretsNamed returns the names of the secrets a task's text names as
// <secret>NAME</secret>, in order, each once.
func SecretsNamed(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range secretRef.FindAllStringSubmatch(text, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, m[1])
		}
	}
	return out
}

// CheckTask checks a task as every way in checks it before anything starts
// (run, submit, the MCP server's run_task, a fleet's worker): its URL is an
// http or https URL with a host (or empty: a blank page), and every
// <secret>NAME</secret> it names is declared, in t.Secrets (keys NAME or
// NAME@ORIGIN) or in names (a task whose values are elsewhere: a fleet's
// workers hold them). A secret named but not declared would otherwise be
// typed into a page as the literal text. The error is a *TaskError.
func CheckTask(t Task, names ...string) error {
	if strings.TrimSpace(t.Instruction) == "" {
		return &TaskError{"the task is empty: say in plain words what to do"}
	}
	if t.URL != "" {
		u, err := url.Parse(t.URL)
		switch {
		case err != nil:
			return &TaskError{fmt.Sprintf("the start URL %q is not a URL: %v", t.URL, err)}
		case u.Scheme != "http" && u.Scheme != "https":
			return &TaskError{fmt.Sprintf("the start URL %q is not http or https; give e.g. https://example.org", t.URL)}
		case u.Host == "":
			return &TaskError{fmt.Sprintf("the start URL %q has no host; write e.g. https://example.org/path", t.URL)}
		}
	}
	declared := map[string]bool{}
	for k := range t.Secrets {
		if n, _, err := secret.ParseKey(k); err == nil {
			declared[n] = true
		}
	}
	for _, k := range names {
		if n, _, err := secret.ParseKey(k); err == nil {
			declared[n] = true
		}
	}
	for _, n := range SecretsNamed(t.Instruction) {
		if !declared[n] {
			return &TaskError{fmt.Sprintf("the task uses <secret>%s</secret> but no secret %s is declared; declare it (--secret %s=VALUE, or %s=env:VAR) or take it out of the task", n, n, n, n)}
		}
	}
	return nil
}
