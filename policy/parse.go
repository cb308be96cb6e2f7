package policy

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/internal/suggest"
	"github.com/webagent/webagent/internal/yamlfile"
)

// Error is a policy that cannot be used: a file that cannot be read, a
// field, tool, pattern or decision that is not known, a preset no one
// made. Its message names the file (or the flag, --confirm, for a
// preset) and the line, and says what to write instead. It is the one
// file-position error of webagent's YAML files (a price file's is the
// same type).
type Error = yamlfile.Error

// Field names of a rule and of its condition.
var (
	ruleFields = []string{"when", "then", "reason"}
	whenFields = []string{"tool", "site", "role", "name", "form_method", "form_action", "read_only"}
	topFields  = []string{"version", "sites", "rules"}
	decisions  = []string{string(Allow), string(Deny), string(Confirm)}
	methods    = []string{"get", "post", "dialog"}
)

// Load reads the policy file at path (see Parse).
func Load(path string) (*Policy, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &Error{File: path, Msg: fmt.Sprintf("cannot read the policy file: %v", err), Err: err}
	}
	return Parse(path, data)
}

// Parse reads a policy in YAML; name is the file's name, for errors and
// for each rule's Source. Its error is an *Error.
func Parse(name string, data []byte) (*Policy, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &Error{File: name, Line: yamlfile.Line(err), Msg: "not valid YAML: " + strings.TrimPrefix(err.Error(), "yaml: "), Err: err}
	}
	if len(doc.Content) == 0 {
		return nil, &Error{File: name, Msg: "the policy is empty; write version: 1 and a list of rules (see webagent help run)"}
	}
	p := &parser{file: name}
	pol, err := p.top(doc.Content[0])
	if err != nil {
		return nil, err
	}
	return pol, nil
}

type parser struct{ file string }

func (p *parser) errf(n *yaml.Node, format string, args ...any) error {
	return &Error{File: p.file, Line: n.Line, Msg: fmt.Sprintf(format, args...)}
}

// fields walks a mapping node's keys, refusing unknown ones with the
// closest known name.
func (p *parser) fields(n *yaml.Node, what string, known []string, each func(key string, k, v *yaml.Node) error) error {
	return yamlfile.Fields(n, what, known, p.errf, func(k, v *yaml.Node) error { return each(k.Value, k, v) })
}

func (p *parser) top(root *yaml.Node) (*Policy, error) {
	pol := &Policy{}
	var rules *yaml.Node
	err := p.fields(root, "the policy", topFields, func(key string, _, v *yaml.Node) error {
		switch key {
		case "version":
			if v.Value != "1" {
				return p.errf(v, "version %q is not known; write version: 1", v.Value)
			}
		case "sites":
			if v.Kind != yaml.SequenceNode {
				return p.errf(v, "sites must be a list of hosts, e.g. [shop.example, *.shop.example]")
			}
			for _, sn := range v.Content {
				if _, err := contract.ParseDomainPatterns(sn.Value); err != nil || sn.Kind != yaml.ScalarNode || strings.TrimSpace(sn.Value) == "" {
					return p.errf(sn, "site %q is not a host pattern: write shop.example, *.shop.example or http://localhost:3000", sn.Value)
				}
				pol.Sites = append(pol.Sites, strings.TrimSpace(sn.Value))
			}
		case "rules":
			if v.Kind != yaml.SequenceNode {
				return p.errf(v, "rules must be a list: each rule starts with - when: {...}")
			}
			rules = v
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if rules == nil || len(rules.Content) == 0 {
		return nil, p.errf(root, "the policy has no rules; write rules: with a list of - when: {...} then: allow|deny|confirm")
	}
	for _, rn := range rules.Content {
		r, err := p.rule(rn)
		if err != nil {
			return nil, err
		}
		pol.Rules = append(pol.Rules, r)
	}
	return pol, nil
}

func (p *parser) rule(n *yaml.Node) (Rule, error) {
	r := Rule{Source: fmt.Sprintf("%s:%d", p.file, n.Line)}
	hasThen := false
	err := p.fields(n, "a rule", ruleFields, func(key string, _, v *yaml.Node) error {
		switch key {
		case "when":
			return p.when(v, &r.When)
		case "then":
			if v.Kind != yaml.ScalarNode || !slices.Contains(decisions, strings.ToLower(v.Value)) {
				return p.errf(v, "then %q is not a decision%s", v.Value, suggest.Hint(strings.ToLower(v.Value), decisions, "write"))
			}
			r.Then, hasThen = Decision(strings.ToLower(v.Value)), true
		case "reason":
			if v.Kind != yaml.ScalarNode {
				return p.errf(v, "reason must be text")
			}
			r.Reason = strings.TrimSpace(v.Value)
		}
		return nil
	})
	if err == nil && !hasThen {
		err = p.errf(n, "the rule has no then; write then: allow, deny or confirm")
	}
	return r, err
}

func (p *parser) when(n *yaml.Node, c *Condition) error {
	return p.fields(n, "when", whenFields, func(key string, k, v *yaml.Node) error {
		if key == "read_only" {
			b, ok := map[string]bool{"true": true, "false": false}[strings.ToLower(v.Value)]
			if v.Kind != yaml.ScalarNode || !ok {
				return p.errf(v, "read_only must be true or false: whether the page marks its tool read-only (page_tool)")
			}
			c.ReadOnly = &b
			return nil
		}
		if v.Kind != yaml.ScalarNode {
			return p.errf(v, "%s must be a pattern such as %s", key, example(key))
		}
		pat, err := ParsePattern(v.Value)
		if err != nil {
			return p.errf(v, "%s: %v", key, err)
		}
		if err := checkField(key, pat); err != nil {
			return p.errf(v, "%v", err)
		}
		switch key {
		case "tool":
			c.Tool = pat
		case "site":
			c.Site = pat
		case "role":
			c.Role = pat
		case "name":
			c.Name = pat
		case "form_method":
			c.FormMethod = pat
		case "form_action":
			c.FormAction = pat
		}
		return nil
	})
}

// checkField checks what a field's pattern may name: known tools, hosts,
// form methods.
func checkField(key string, pat Pattern) error {
	switch key {
	case "tool":
		tools := contract.ActionNames()
		for _, a := range pat.alts {
			if !slices.ContainsFunc(tools, func(t string) bool { return glob(a, t) }) {
				return fmt.Errorf("unknown tool %q%s", a, suggest.Hint(a, tools, "tools"))
			}
		}
	case "site":
		for _, a := range pat.alts {
			if strings.Contains(a, "/") {
				return fmt.Errorf("site %q is not a host; write the host alone, e.g. shop.example or *.shop.example (no scheme, no path)", a)
			}
		}
	case "form_method":
		for _, a := range pat.alts {
			if !slices.ContainsFunc(methods, func(m string) bool { return glob(a, m) }) {
				return fmt.Errorf("form_method %q is not a form method%s", a, suggest.Hint(a, methods, "write"))
			}
		}
	}
	return nil
}

func example(key string) string {
	switch key {
	case "tool":
		return "click|type"
	case "site":
		return `"*.shop.example"`
	case "form_method":
		return "post"
	case "form_action":
		return `"*/checkout*"`
	}
	return `"*buy*|*pay*"`
}

// Presets returns the rules of the named presets, in order; each name may
// be a comma-separated list. The presets only ask (confirm):
//
//   - submits: an action that submits a form by POST;
//   - purchases: a click on something named buy, pay, order, checkout,
//     purchase, subscribe ..., or a submitted form whose action looks like
//     a checkout, an order or a payment;
//   - deletes: a click on something named delete, remove, cancel
//     subscription, close account ..., or a form whose action deletes;
//   - all: every action that changes the page (not reading, scrolling,
//     hovering, waiting, or navigating, which --allowed-domains governs).
//
// A page tool (page_tool) the page does not mark read-only counts as a
// submission; one named like a purchase or a deletion as those.
//
// An unknown name is an *Error that names the presets.
func Presets(names ...string) (*Policy, error) {
	var ps []*Policy
	for _, list := range names {
		for n := range strings.SplitSeq(list, ",") {
			n = strings.ToLower(strings.TrimSpace(n))
			if n == "" {
				continue
			}
			p, ok := presets[n]
			if !ok {
				return nil, &Error{File: "--confirm", Msg: fmt.Sprintf("unknown preset %q%s", n, suggest.Hint(n, PresetNames(), "presets"))}
			}
			ps = append(ps, p)
		}
	}
	return Join(ps...), nil
}

// PresetNames are the names Presets knows.
func PresetNames() []string { return []string{"submits", "purchases", "deletes", "all"} }
