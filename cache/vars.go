package cache

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// varRef is a variable in a task or a URL: {{name}}.
var varRef = regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`)

// varName is a valid variable name.
var varName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// VarError is a variable that does not fit the task: a name that is not
// one, a value without its {{name}}, or a {{name}} without its value.
type VarError struct{ Msg string }

func (e *VarError) Error() string { return e.Msg }

// Expand puts the values of vars in place of their {{name}} in each of
// texts, returned in order. Every variable must be used by one of the
// texts, and every {{name}} in them must have a value: anything else is a
// *VarError that says what to write. Without vars, texts are returned as
// they are.
func Expand(vars map[string]string, texts ...string) ([]string, error) {
	if len(vars) == 0 {
		return texts, nil
	}
	used := map[string]bool{}
	for name := range vars {
		if !varName.MatchString(name) {
			return nil, &VarError{fmt.Sprintf("the variable name %q: a name is letters, digits and _, not starting with a digit (user, order_id)", name)}
		}
	}
	out := make([]string, len(texts))
	var missing []string
	for i, t := range texts {
		out[i] = varRef.ReplaceAllStringFunc(t, func(m string) string {
			name := varRef.FindStringSubmatch(m)[1]
			v, ok := vars[name]
			if !ok {
				if !slices.Contains(missing, name) {
					missing = append(missing, name)
				}
				return m
			}
			used[name] = true
			return v
		})
	}
	if len(missing) > 0 {
		return nil, &VarError{fmt.Sprintf("the task uses {{%s}} but no value is given for %s", missing[0], missing[0])}
	}
	for _, name := range sortedNames(vars) {
		if !used[name] {
			return nil, &VarError{fmt.Sprintf("the variable %s is not used: write {{%s}} in the task (or its start URL) where its value goes", name, name)}
		}
	}
	return out, nil
}

// sortedNames is the names of vars in order.
func sortedNames(vars map[string]string) []string {
	names := make([]string, 0, len(vars))
	for n := range vars {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// substitution replaces, in recorded text, the recorded values of
// variables by the values of this run; longer values first, so that a
// value inside another is not replaced in it.
type substitution struct {
	r *strings.Replacer
}

func newSubstitution(recorded, now map[string]string) substitution {
	type pair struct{ from, to string }
	var pairs []pair
	for name, from := range recorded {
		to, ok := now[name]
		if !ok || from == "" || from == to {
			continue
		}
		pairs = append(pairs, pair{from, to})
	}
	if len(pairs) == 0 {
		return substitution{}
	}
	sort.Slice(pairs, func(i, j int) bool { return len(pairs[i].from) > len(pairs[j].from) })
	var args []string
	for _, p := range pairs {
		args = append(args, p.from, p.to)
	}
	return substitution{r: strings.NewReplacer(args...)}
}

func (s substitution) apply(text string) string {
	if s.r == nil {
		return text
	}
	return s.r.Replace(text)
}
