package contract

import "context"

// Target is what an action aims at, for the user's action policy: the
// element, as the snapshot names it, and the form the action would submit.
type Target struct {
	// URL is the page's URL (the site of the policy's rules).
	URL string
	// Role and Name are the element's role and accessible name as the
	// snapshot shows them (button, "Place order"); empty when the action
	// aims at no element (goto, scroll, a press of a key that activates
	// nothing).
	Role, Name string
	// Ref is the element's ref in the latest snapshot of its document,
	// when it has one.
	Ref string
	// Form is the form the action would submit: a click on a submit button
	// of a form, type with Submit or a press of Enter in a field of one.
	// Nil when it submits none.
	Form *Form
}

// Form is a form an action would submit, as the browser would send it
// (the submitter's formmethod and formaction win over the form's own).
type Form struct {
	Method string `json:"method"` // lower-case: get, post or dialog
	Action string `json:"action"` // absolute URL
}

// TargetDescriber is implemented by browsers that can tell what an action
// would aim at without performing it. The loop asks before an action when
// the user's policy looks at the element or the form. DescribeTarget must
// not change the page, and returns once ctx is done; an unknown or stale
// ref is an *ActionError, as Do would say.
type TargetDescriber interface {
	DescribeTarget(ctx context.Context, a Action) (Target, error)
}
