package browser

import "fmt"

// humanCheck is a check only a person may pass that a document shows, as
// js/humanCheck.js (composed into the snapshot walker) finds it: its name,
// and whether it stands in front of the page.
//
// Recognising a check is all the browser does: it never clicks a CAPTCHA
// or answers a challenge. What happens next (a person takes over, or the
// task ends as blocked) is the loop's decision.
type humanCheck struct {
	Name  string `json:"name"`
	Whole bool   `json:"whole"`
}

// line is the first line of the text of a snapshot whose page shows the
// check.
func (c humanCheck) line() string {
	if c.Whole {
		return fmt.Sprintf("human check: %s stands in front of this page (only a person may pass it)", c.Name)
	}
	return fmt.Sprintf("human check: %s on this page (only a person may pass it)", c.Name)
}
