package browser

import (
	"slices"
	"strings"

	"github.com/webagent/webagent/contract"
)

// originJS gives the origin of the document an element is in.
var originJS = program("origin")

// checkSecretOrigin refuses a type action that carries a secret unless the
// field el is in a document of one of the secret's origins (a frame of
// another site inside the right page does not count); origin is that
// document's. The refusal names the secrets, never their values.
func checkSecretOrigin(a contract.Action, el element, origin string) error {
	if a.Origins == nil {
		return nil
	}
	origin = strings.ToLower(origin)
	if slices.Contains(a.Origins, origin) {
		return nil
	}
	return contract.ActionErrorf("the secret %s may only be typed on %s; %s is on %s, so nothing was typed",
		strings.Join(a.SecretNames, ", "), strings.Join(a.Origins, ", "), el.desc, origin)
}

// checkLinkOrigin refuses a goto whose URL is a secret (a sign-in link
// from the agent's inbox) unless the tab is on one of the secret's
// origins, the page the agent was on when it read the link. The refusal
// names the secret, never the link.
func (o *op) checkLinkOrigin(a contract.Action) error {
	if a.Origins == nil {
		return nil
	}
	var origin string
	if err := o.evalValue("location.origin", &origin); err != nil {
		return err
	}
	origin = strings.ToLower(origin)
	if slices.Contains(a.Origins, origin) {
		return nil
	}
	return contract.ActionErrorf("the secret %s may only be opened from a page of %s; this page is on %s, so nothing was opened",
		strings.Join(a.SecretNames, ", "), strings.Join(a.Origins, ", "), origin)
}
