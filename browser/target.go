package browser

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"

	"github.com/webagent/webagent/contract"
)

// What an action aims at, for the user's action policy: the element named
// as the snapshot names it, and the form the action would submit. Nothing
// here changes the page.

// targetJS tells whether an action on an element activates it and which
// form it would submit; targetFocusedJS and targetAtJS do so for the
// focused element and for the element at a point.
var (
	targetJS        = program("target")
	targetFocusedJS = program("targetFocused")
	targetAtJS      = program("targetAt")
)

// targetInfo is what the target programs return.
type targetInfo struct {
	Aims bool           `json:"aims"`
	Desc string         `json:"desc"`
	Form *contract.Form `json:"form"`
	// URL is, for a point in a frame, the frame document's address:
	// the policy judges the frame's site.
	URL string `json:"url"`
	// Ref is, for a point, the ref of the element there, if it has one.
	Ref string `json:"ref"`
}

// DescribeTarget says what a would aim at: the page's URL, the element's
// role and name as the snapshot shows them, and the form it would submit.
// It resolves the action's ref as the action would (an unknown or stale ref
// is the same *contract.ActionError) and changes nothing on the page. It
// implements contract.TargetDescriber.
func (b *Browser) DescribeTarget(ctx context.Context, a contract.Action) (contract.Target, error) {
	if err := a.Validate(); err != nil {
		return contract.Target{}, err
	}
	o, err := b.begin(ctx)
	if err != nil {
		return contract.Target{}, err
	}
	defer o.end()
	t, err := o.describeTarget(a)
	if err != nil {
		return contract.Target{}, o.fail("describing the target of "+a.Name, err)
	}
	return t, nil
}

func (o *op) describeTarget(a contract.Action) (contract.Target, error) {
	var t contract.Target
	if err := o.evalValue("location.href", &t.URL); err != nil {
		return t, err
	}
	kind, aims := targetKind(a)
	if !aims {
		return t, nil
	}
	var info targetInfo
	switch {
	case a.Name == contract.ActPress:
		if err := o.evalValue(jsCall(targetFocusedJS, kind), &info); err != nil {
			return t, err
		}
	case a.Name == contract.ActType && a.Ref == "":
		// Typing where the focus is (a vendor's computer tool).
		if err := o.evalValue(jsCall(targetFocusedJS, kind), &info); err != nil {
			return t, err
		}
	case a.Ref == "" && a.At != nil:
		if err := o.evalValue(jsCall(targetAtJS, a.At.X, a.At.Y, kind), &info); err != nil {
			return t, err
		}
	case a.Ref != "":
		el, err := o.resolve(a.Ref)
		if err != nil {
			return t, err
		}
		if err := o.callEl(el, targetJS, &info, kind); err != nil {
			return t, err
		}
		info.Desc = el.desc
	default:
		return t, nil
	}
	if !info.Aims {
		return t, nil
	}
	t.Role, t.Name = splitDesc(info.Desc)
	t.Ref = info.Ref
	if a.Ref != "" {
		t.Ref = a.Ref
	}
	t.Form = info.Form
	if info.URL != "" {
		t.URL = info.URL
	}
	return t, nil
}

// elementTools are the actions whose Ref names an element (read_region's
// names a region).
var elementTools = map[string]bool{
	contract.ActClick: true, contract.ActType: true, contract.ActSelect: true, contract.ActOptions: true,
	contract.ActCheck: true, contract.ActUncheck: true, contract.ActHover: true, contract.ActScroll: true,
	contract.ActDrag: true, contract.ActUpload: true, contract.ActWaitFor: true, contract.ActMouse: true,
	contract.ActMousePath: true, contract.ActSetSlider: true, contract.ActMultiSelect: true,
	contract.ActSelectText: true, contract.ActBox: true,
}

// targetKind says how a acts on its element, for target.js: "click"
// (activates it), "enter" or "space" (a key pressed in it), "" (acts on it
// otherwise); aims is false when it aims at no element.
func targetKind(a contract.Action) (kind string, aims bool) {
	switch a.Name {
	case contract.ActClick:
		return "click", true
	case contract.ActMouse:
		switch a.Op {
		case "", contract.MouseClick, contract.MouseDoubleClick:
			return "click", a.Ref != "" || a.At != nil
		case contract.MouseRightClick:
			return "", a.Ref != "" || a.At != nil
		case contract.MouseTripleClick:
			return "click", a.Ref != "" || a.At != nil
		}
		return "", false // hover
	case contract.ActType:
		if a.Submit {
			return "enter", true
		}
		return "", true
	case contract.ActScroll:
		return "", a.Ref != "" || a.At != nil // a wheel over a point: what is there, a frame's site
	case contract.ActDrag:
		return "", a.Ref != "" || a.At != nil
	case contract.ActPress:
		keys := strings.Split(strings.TrimSpace(a.Key), "+")
		switch k := strings.ToLower(strings.TrimSpace(keys[len(keys)-1])); {
		case k == "enter" || k == "numpadenter":
			return "enter", true
		case k == "space" || k == "" && strings.HasSuffix(a.Key, " "):
			return "space", true
		}
		return "", false
	}
	return "", elementTools[a.Name] && a.Ref != ""
}

// descRE reads a description of describe.js, role then quoted name, with
// the ref resolve adds.
var descRE = regexp.MustCompile(`^(\S+)(?: (".*"))?(?: \[(?:ref=)?e\d+\])?$`)

// splitDesc splits a snapshot's description of an element, `button "Place
// order" [ref=e5]`, into its role and name.
func splitDesc(desc string) (role, name string) {
	m := descRE.FindStringSubmatch(strings.TrimSpace(desc))
	if m == nil {
		return desc, ""
	}
	if m[2] != "" && json.Unmarshal([]byte(m[2]), &name) != nil {
		name = strings.Trim(m[2], `"`)
	}
	return m[1], name
}
