package suite

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/eval/sites"
	"github.com/webagent/webagent/internal/suggest"
	"github.com/webagent/webagent/secret"
)

// The loader of a task file and its field readers, which read YAML nodes into
// values and report each problem at its line.

// loader collects the problems of one file.
type loader struct {
	file   string
	errs   Errors
	taskID string // ID of the task being read
}

func (l *loader) errorf(n *yaml.Node, field, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	l.errs = append(l.errs, &Error{File: l.file, Line: line, Task: l.taskID, Field: field, Msg: fmt.Sprintf(format, args...)})
}

func hasKey(m *yaml.Node, key string) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return true
		}
	}
	return false
}

// fields returns a mapping's key/value pairs, reporting unknown and repeated
// keys.
func (l *loader) fields(m *yaml.Node, prefix string, known []string) [][2]*yaml.Node {
	var out [][2]*yaml.Node
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		name := prefix + k.Value
		switch {
		case !contains(known, k.Value):
			msg := fmt.Sprintf("unknown field %q", k.Value)
			if s := closest(k.Value, known); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			l.errorf(k, name, "%s; the fields here are: %s", msg, strings.Join(known, ", "))
		case seen[k.Value]:
			l.errorf(k, name, "the field is given twice")
		default:
			seen[k.Value] = true
			out = append(out, [2]*yaml.Node{k, v})
		}
	}
	return out
}

// closest returns the known name nearest to s, if it is near.
func closest(s string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := suggest.Distance(s, k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// Field readers. Each reports its own problems and returns a zero value on
// error.

func (l *loader) str(v *yaml.Node, field string, required bool) string {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		if v.Kind == yaml.ScalarNode && !required {
			return ""
		}
		l.errorf(v, field, "must be a string")
		return ""
	}
	if required && strings.TrimSpace(v.Value) == "" {
		l.errorf(v, field, "must not be empty")
	}
	return v.Value
}

func (l *loader) strList(v *yaml.Node, field string) []string {
	if v.Kind != yaml.SequenceNode {
		l.errorf(v, field, "must be a list of strings")
		return nil
	}
	var out []string
	for i, x := range v.Content {
		if s := l.str(x, fmt.Sprintf("%s[%d]", field, i), true); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func (l *loader) site(v *yaml.Node, field string) string {
	s := l.str(v, field, true)
	if s == "" {
		return ""
	}
	if !contains(sites.Names(), s) {
		l.errorf(v, field, "unknown site %q; the built-in sites are: %s", s, strings.Join(sites.Names(), ", "))
		return ""
	}
	return s
}

func (l *loader) limits(v *yaml.Node, field string, lim agent.Limits) agent.Limits {
	durations := map[string]*time.Duration{
		"iteration_timeout": &lim.IterationTimeout, "task_timeout": &lim.TaskTimeout,
		"start_timeout": &lim.StartTimeout, "operation_timeout": &lim.OperationTimeout,
		"human_timeout": &lim.HumanTimeout,
	}
	counts := map[string]*int{"max_iterations": &lim.MaxIterations, "max_iteration_timeouts": &lim.MaxIterationTimeouts}
	keys := []string{"max_iterations", "iteration_timeout", "task_timeout", "start_timeout", "operation_timeout",
		"human_timeout", "timeout_policy", "max_iteration_timeouts"}
	if v.Kind != yaml.MappingNode {
		l.errorf(v, field, "must be a mapping of %s", strings.Join(keys, ", "))
		return lim
	}
	for _, kv := range l.fields(v, field+".", keys) {
		k, x := kv[0], kv[1]
		name := field + "." + k.Value
		if n, ok := counts[k.Value]; ok {
			c, err := strconv.Atoi(x.Value)
			if x.Kind != yaml.ScalarNode || err != nil || c < 1 {
				l.errorf(x, name, "%q must be a whole number of at least 1", x.Value)
				continue
			}
			*n = c
			continue
		}
		if k.Value == "timeout_policy" {
			p := agent.TimeoutPolicy(x.Value)
			if x.Kind != yaml.ScalarNode || (p != agent.PolicyFatal && p != agent.PolicyRecover) {
				l.errorf(x, name, "%q is not %s or %s", x.Value, agent.PolicyFatal, agent.PolicyRecover)
				continue
			}
			lim.TimeoutPolicy = p
			continue
		}
		d, err := time.ParseDuration(x.Value)
		if x.Kind != yaml.ScalarNode || err != nil || d <= 0 {
			l.errorf(x, name, "%q is not a positive Go duration such as 90s, 5m or 1h30m", x.Value)
			continue
		}
		*durations[k.Value] = d
	}
	return lim
}

// domains reads a list of domain patterns (contract.ParseDomainPattern).
func (l *loader) domains(v *yaml.Node, field string) []contract.DomainPattern {
	var out []contract.DomainPattern
	for i, s := range l.strList(v, field) {
		p, err := contract.ParseDomainPattern(s)
		if err != nil {
			l.errorf(v.Content[i], fmt.Sprintf("%s[%d]", field, i), "%v", err)
			continue
		}
		out = append(out, p)
	}
	return out
}

func (l *loader) secrets(v *yaml.Node) map[string]string {
	if v.Kind != yaml.MappingNode {
		l.errorf(v, "secrets", "must be a mapping of secret names to values")
		return nil
	}
	out := map[string]string{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, x := v.Content[i], v.Content[i+1]
		if _, _, err := secret.ParseKey(k.Value); err != nil {
			l.errorf(k, "secrets."+k.Value, "%v (a secret's name may hold only letters, digits, '_', '.' and '-', and may be bound as NAME@https://origin)", err)
			continue
		}
		if _, dup := out[k.Value]; dup {
			l.errorf(k, "secrets."+k.Value, "the secret is given twice")
			continue
		}
		out[k.Value] = l.str(x, "secrets."+k.Value, true)
	}
	return out
}

func (l *loader) regex(v *yaml.Node, field, s string) *regexp.Regexp {
	re, err := regexp.Compile(s)
	if err != nil {
		l.errorf(v, field, "bad regex %q: %v", s, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
		return nil
	}
	return re
}

func (l *loader) number(v *yaml.Node, field string) float64 {
	f, err := strconv.ParseFloat(strings.ReplaceAll(v.Value, "_", ""), 64)
	if v.Kind != yaml.ScalarNode || err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		l.errorf(v, field, "%q is not a number", v.Value)
		return 0
	}
	return f
}
