package routine

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// params are a routine's parameters, found while its program is written:
// each value the run typed, chose or opened that the task (or a variable)
// gave becomes one, named after its variable or the field it went to.
type params struct {
	task  string
	vars  map[string]string
	names []string          // in the order found
	value map[string]string // name -> the recorded value
	field map[string]string // name -> the field it went to
}

func newParams(task string, vars map[string]string) *params {
	return &params{task: task, vars: vars, value: map[string]string{}, field: map[string]string{}}
}

// of is the parameter a whole recorded value is, made when the task or a
// variable gave that value; "" when it is the page's own (a fixed choice).
func (p *params) of(v, field string) string {
	for _, n := range p.names {
		if p.value[n] == v {
			return n
		}
	}
	name := ""
	for n, val := range p.vars {
		if val == v && v != "" {
			name = n
		}
	}
	if name == "" {
		if len([]rune(v)) < 2 || !strings.Contains(p.task, v) {
			return ""
		}
		name = p.unique(ident(field))
	}
	p.names = append(p.names, name)
	p.value[name], p.field[name] = v, field
	return name
}

var nonIdent = regexp.MustCompile(`[^a-z0-9]+`)

// ident makes a field's name a parameter's: "Full name" is full_name.
func ident(field string) string {
	s := strings.Trim(nonIdent.ReplaceAllString(strings.ToLower(field), "_"), "_")
	if len(s) > 32 {
		s = strings.TrimRight(s[:32], "_")
	}
	switch {
	case s == "":
		return "value"
	case s[0] >= '0' && s[0] <= '9':
		return "p_" + s
	}
	return s
}

func (p *params) unique(name string) string {
	taken := func(n string) bool { _, ok := p.value[n]; return ok }
	if !taken(name) {
		return name
	}
	for i := 2; ; i++ {
		if n := fmt.Sprintf("%s_%d", name, i); !taken(n) {
			return n
		}
	}
}

// within writes a recorded text as an expression in which the values of
// the parameters found so far are read from params: "Customer " +
// params.full_name + " added".
func (p *params) within(s string) string {
	names := append([]string(nil), p.names...)
	sort.SliceStable(names, func(i, j int) bool { return len(p.value[names[i]]) > len(p.value[names[j]]) })
	type part struct {
		lit  string
		name string
	}
	parts := []part{{lit: s}}
	for _, n := range names {
		v := p.value[n]
		var next []part
		for _, pt := range parts {
			if pt.name != "" || !strings.Contains(pt.lit, v) {
				next = append(next, pt)
				continue
			}
			pieces := strings.Split(pt.lit, v)
			for i, piece := range pieces {
				if i > 0 {
					next = append(next, part{name: n})
				}
				if piece != "" {
					next = append(next, part{lit: piece})
				}
			}
		}
		parts = next
	}
	var out []string
	for _, pt := range parts {
		if pt.name != "" {
			out = append(out, "params."+pt.name)
		} else {
			out = append(out, jsLiteral(pt.lit))
		}
	}
	if len(out) == 0 {
		return `""`
	}
	return strings.Join(out, " + ")
}

// schema is the parameters' JSON Schema: each a string, required, with
// the field it goes to and the run's value as an example.
func (p *params) schema() json.RawMessage {
	props := map[string]any{}
	for _, n := range p.names {
		desc := "the value typed or chosen"
		if f := p.field[n]; f != "" {
			desc = fmt.Sprintf("the value for %q", f)
		}
		props[n] = map[string]any{"type": "string", "description": desc, "examples": []string{p.value[n]}}
	}
	req := append([]string{}, p.names...)
	data, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "required": req, "additionalProperties": false})
	return data
}

// describe is a description for a model made from the task: each
// parameter's value replaced by its name in braces.
func (p *params) describe(task string) string {
	d := task
	for _, n := range p.names {
		d = strings.ReplaceAll(d, p.value[n], "{"+n+"}")
	}
	return strings.TrimSpace(oneLine(d)) + " (a routine saved from a run that worked: it repeats that run's steps without a model, with the values given)"
}

var digits = regexp.MustCompile(`[0-9]+`)

// expectText is the postcondition's text: within's expression, or, where
// the text holds numbers of the page's own (an order's), a regular
// expression in which they are any number and the parameters' values any
// text.
func (p *params) expectText(text string) string {
	rest := text
	for _, n := range p.names {
		rest = strings.ReplaceAll(rest, p.value[n], "")
	}
	if !digits.MatchString(rest) {
		return p.within(text)
	}
	re := regexp.QuoteMeta(text)
	for _, n := range p.names {
		re = strings.ReplaceAll(re, regexp.QuoteMeta(p.value[n]), "\x00")
	}
	re = digits.ReplaceAllString(re, `\d+`)
	re = strings.ReplaceAll(re, "\x00", ".+")
	return "/" + strings.ReplaceAll(re, "/", `\/`) + "/"
}
