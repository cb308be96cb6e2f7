package agent

import (
	"fmt"

	"github.com/webagent/webagent/contract"
)

// Human checks: a CAPTCHA or a challenge page, which the browser names in
// Snapshot.HumanCheck. The agent never tries to pass one. With a person
// to ask (WithHuman), the model is told to hand over through ask_human,
// whose question carries the page's address. Without one, a check that
// stands in front of the page ends the task as BLOCKED once it is still
// there at the next snapshot (a challenge page may pass by itself, as
// Cloudflare's does for an ordinary browser within seconds), and a model
// that gives up on a page showing a check ends it as BLOCKED too.

// blockedBy says why the task ends blocked at this snapshot, or "".
// checkSeen tells whether the previous snapshot showed a check standing in
// front of the page.
func (r *run) blockedBy(s contract.Snapshot, checkSeen bool) string {
	if s.HumanCheck == "" || !s.HumanCheckBlocks || r.asks != nil || !checkSeen {
		return ""
	}
	return fmt.Sprintf("%s stands in front of %s; only a person may pass it, and no person was set to ask "+
		"(run the CLI on a terminal, or give WithHuman to the Go API)", s.HumanCheck, r.sec.Mask(s.URL))
}

// handOver is what ask_human adds to a question asked while the page shows
// a human check: where the person can pass it.
func handOver(check, url string) string {
	if check == "" {
		return ""
	}
	return fmt.Sprintf("\n(The page %s shows %s; pass it in the browser, then answer.)", url, check)
}
