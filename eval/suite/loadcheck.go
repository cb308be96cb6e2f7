package suite

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Reading the checks of a task.

var checkKinds = []string{KindAnswerEquals, KindAnswerContains, KindAnswerRegex, KindAnswerNumber,
	KindURLEquals, KindURLContains, KindURLRegex, KindPageJS, KindElementText, KindState}

func (l *loader) check(n *yaml.Node, field string) (Check, bool) {
	before := len(l.errs)
	if n.Kind != yaml.MappingNode {
		l.errorf(n, field, "a check is a mapping such as {answer_contains: \"42\"}; the kinds are: %s", strings.Join(checkKinds, ", "))
		return Check{}, false
	}
	c := Check{Line: n.Line}
	var kindNode, tolNode *yaml.Node
	for _, kv := range l.fields(n, field+".", append(append([]string(nil), checkKinds...), "tolerance")) {
		k, v := kv[0], kv[1]
		if k.Value == "tolerance" {
			tolNode = v
			continue
		}
		if c.Kind != "" {
			l.errorf(k, field+"."+k.Value, "a check has one kind; this one is already %s (write a second check)", c.Kind)
			continue
		}
		c.Kind, kindNode = k.Value, v
	}
	if c.Kind == "" {
		if len(l.errs) == before {
			l.errorf(n, field, "the check has no kind; the kinds are: %s", strings.Join(checkKinds, ", "))
		}
		return Check{}, false
	}
	name := field + "." + c.Kind
	if tolNode != nil && c.Kind != KindAnswerNumber {
		l.errorf(tolNode, field+".tolerance", "tolerance goes only with answer_number")
	}
	switch c.Kind {
	case KindAnswerEquals, KindAnswerContains, KindURLEquals, KindURLContains, KindPageJS:
		c.Text = l.str(kindNode, name, true)
	case KindAnswerRegex, KindURLRegex:
		c.Text = l.str(kindNode, name, true)
		c.re = l.regex(kindNode, name, c.Text)
	case KindAnswerNumber:
		c.Number = l.number(kindNode, name)
		if tolNode != nil {
			c.Tolerance = l.number(tolNode, field+".tolerance")
			if c.Tolerance < 0 {
				l.errorf(tolNode, field+".tolerance", "must not be negative")
			}
		}
	case KindElementText:
		if kindNode.Kind != yaml.MappingNode {
			l.errorf(kindNode, name, "must be a mapping {selector: CSS, equals|contains|regex: TEXT}")
			break
		}
		for _, kv := range l.fields(kindNode, name+".", []string{"selector", OpEquals, OpContains, OpRegex}) {
			k, v := kv[0], kv[1]
			if k.Value == "selector" {
				c.Selector = l.str(v, name+".selector", true)
				continue
			}
			if c.Op != "" {
				l.errorf(k, name+"."+k.Value, "give one of equals, contains or regex, not both %s and %s", c.Op, k.Value)
				continue
			}
			c.Op = k.Value
			s := l.str(v, name+"."+k.Value, k.Value != OpEquals)
			c.Want = s
			if c.Op == OpRegex {
				c.re = l.regex(v, name+".regex", s)
			}
		}
		if !hasKey(kindNode, "selector") {
			l.errorf(kindNode, name+".selector", "missing: the CSS selector of the element")
		}
		if c.Op == "" && len(l.errs) == before {
			l.errorf(kindNode, name, "give one of equals, contains or regex")
		}
	case KindState:
		l.stateCheck(kindNode, name, &c)
	}
	return c, len(l.errs) == before
}

func (l *loader) stateCheck(n *yaml.Node, name string, c *Check) {
	if n.Kind != yaml.MappingNode {
		l.errorf(n, name, "must be a mapping {path: DOTTED.PATH, equals|contains|regex|count|exists: VALUE}")
		return
	}
	before := len(l.errs)
	for _, kv := range l.fields(n, name+".", []string{"path", OpEquals, OpContains, OpRegex, OpCount, OpExists}) {
		k, v := kv[0], kv[1]
		field := name + "." + k.Value
		if k.Value == "path" {
			c.Path = l.str(v, field, true)
			if c.Path != "" {
				segs, err := parsePath(c.Path)
				if err != nil {
					l.errorf(v, field, "bad path %q: %v", c.Path, err)
				}
				c.segs = segs
			}
			continue
		}
		if c.Op != "" {
			l.errorf(k, field, "give one operator, not both %s and %s", c.Op, k.Value)
			continue
		}
		c.Op = k.Value
		switch k.Value {
		case OpEquals, OpContains:
			var x any
			if err := v.Decode(&x); err != nil {
				l.errorf(v, field, "%v", err)
			}
			c.Want = normalize(x)
		case OpRegex:
			s := l.str(v, field, true)
			c.Want, c.re = s, l.regex(v, field, s)
		case OpCount:
			n, err := strconv.Atoi(v.Value)
			if v.Kind != yaml.ScalarNode || err != nil || n < 0 {
				l.errorf(v, field, "%q must be a whole number of 0 or more", v.Value)
			}
			c.Want = float64(n)
		case OpExists:
			b, err := strconv.ParseBool(v.Value)
			if v.Kind != yaml.ScalarNode || err != nil {
				l.errorf(v, field, "%q must be true or false", v.Value)
			}
			c.Want = b
		}
	}
	if !hasKey(n, "path") {
		l.errorf(n, name+".path", "missing: the dotted path into the site's state, e.g. orders.0.total_cents")
	}
	if c.Op == "" && len(l.errs) == before {
		l.errorf(n, name, "give one operator: equals, contains, regex, count or exists")
	}
}
