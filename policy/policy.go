package policy

import (
	"net/url"
	"slices"
	"strings"
)

// Decision is what a rule says of an action.
type Decision string

// The decisions.
const (
	// Allow runs the action.
	Allow Decision = "allow"
	// Deny refuses it; the model is told it was refused.
	Deny Decision = "deny"
	// Confirm asks a person first: the action runs only on a yes.
	Confirm Decision = "confirm"
)

// Action is what the policy decides on: one call of a page tool.
type Action struct {
	// Tool is the model's tool (contract.ActClick, ...).
	Tool string
	// URL is the page's URL, for the site.
	URL string
	// Role and Name are the role and accessible name of the element the
	// action aims at, as the snapshot shows them; empty when it aims at
	// none.
	Role, Name string
	// Form is the form the action would submit; nil when it submits none.
	Form *Form
	// ReadOnly is, for page_tool, the page's hint that its tool changes
	// nothing; false for every other tool.
	ReadOnly bool
}

// Form is a form an action would submit.
type Form struct {
	Method string // lower-case: get, post or dialog
	Action string // the absolute URL it is sent to
}

// Rule is one rule of a policy.
type Rule struct {
	When Condition
	Then Decision
	// Reason is said to the person asked, and to the model when the
	// action is refused.
	Reason string
	// Source names the rule for people: the file and line it was read
	// from (policy.yaml:4), or the preset (--confirm purchases).
	Source string
}

// Condition is when a rule applies: every pattern set must match. The
// zero Condition matches every action.
type Condition struct {
	Tool, Site, Role, Name, FormMethod, FormAction Pattern
	// ReadOnly, when set, must equal the action's ReadOnly (read_only:
	// true|false in a file).
	ReadOnly *bool
}

// Policy is an ordered list of rules; the first that matches an action
// decides. The nil *Policy allows everything.
type Policy struct {
	Rules []Rule
	// Sites, when set, are the only sites the task may open (host
	// patterns, as --allowed-domains takes them): the run's domain guard
	// holds them where the user gave no allowed domains.
	Sites []string
}

// Verdict is a policy's decision on one action.
type Verdict struct {
	Decision Decision
	// Rule is the Source of the rule that decided; empty when none
	// matched (the action is allowed).
	Rule   string
	Reason string
}

// Join returns a policy with the rules of ps in order; nil policies are
// skipped. It returns nil when no rule is left.
func Join(ps ...*Policy) *Policy {
	var (
		rules []Rule
		sites []string
	)
	for _, p := range ps {
		if p != nil {
			rules = append(rules, p.Rules...)
			if sites == nil {
				sites = p.Sites // the first policy that names sites decides them
			}
		}
	}
	if len(rules) == 0 && sites == nil {
		return nil
	}
	return &Policy{Rules: rules, Sites: sites}
}

// Decide returns the decision of the first rule that matches a; Allow when
// none does.
func (p *Policy) Decide(a Action) Verdict {
	if p == nil {
		return Verdict{Decision: Allow}
	}
	for _, r := range p.Rules {
		if r.When.Match(a) {
			return Verdict{Decision: r.Then, Rule: r.Source, Reason: r.Reason}
		}
	}
	return Verdict{Decision: Allow}
}

// Asks reports whether a rule of p may ask a person (then: confirm).
func (p *Policy) Asks() bool {
	return p != nil && slices.ContainsFunc(p.Rules, func(r Rule) bool { return r.Then == Confirm })
}

// Needs reports whether deciding a call of tool needs what the action aims
// at (role, name, form): whether a rule that may match the tool looks at
// them. A caller can spare the browser the question otherwise.
func (p *Policy) Needs(tool string) bool {
	if p == nil {
		return false
	}
	return slices.ContainsFunc(p.Rules, func(r Rule) bool {
		c := r.When
		return c.Tool.Match(tool) && !(c.Role.any() && c.Name.any() && c.FormMethod.any() && c.FormAction.any())
	})
}

// NeedsSite reports whether a rule that may match a call of tool names a
// site: an action at a point may aim at a frame of another site, which is
// judged as that frame's site, so the caller must ask what is there.
func (p *Policy) NeedsSite(tool string) bool {
	if p == nil {
		return false
	}
	return slices.ContainsFunc(p.Rules, func(r Rule) bool { return r.When.Tool.Match(tool) && !r.When.Site.any() })
}

// Match reports whether the condition holds for a.
func (c Condition) Match(a Action) bool {
	if !c.Tool.Match(a.Tool) || !c.Role.Match(a.Role) || !c.Name.Match(a.Name) {
		return false
	}
	if c.ReadOnly != nil && *c.ReadOnly != a.ReadOnly {
		return false
	}
	if !c.Site.any() && !matchSite(c.Site, a.URL) {
		return false
	}
	if c.FormMethod.any() && c.FormAction.any() {
		return true
	}
	return a.Form != nil && c.FormMethod.Match(a.Form.Method) && c.FormAction.Match(a.Form.Action)
}

// matchSite matches a site pattern against the host of raw: host alone, or
// host:port when the pattern names a port; *.example also matches example.
func matchSite(p Pattern, raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return false
	}
	host := strings.ToLower(u.Hostname())
	for _, alt := range p.alts {
		h := host
		if strings.Contains(alt, ":") {
			h = host + ":" + portOf(u)
		}
		if glob(alt, h) || (strings.HasPrefix(alt, "*.") && glob(alt[2:], h)) {
			return true
		}
	}
	return false
}

// portOf is u's port, or its scheme's default.
func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if u.Scheme == "https" {
		return "443"
	}
	return "80"
}

// Host is the host the site condition is matched against: the host of
// raw, or raw when it has none.
func Host(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		return u.Host
	}
	return raw
}
