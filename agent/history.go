package agent

import (
	"fmt"
	"slices"
	"strings"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/internal/outline"
)

// The conversation's history, and the two places it is rewritten. The
// system prompt, the tools and the task come first and never change, so
// they are always a prefix a provider's cache serves. While the page stays
// the same document the messages are only appended (deltas after in-page
// actions), so each request starts with the previous one whole. When the
// page changes (another document or URL), the observations of the pages
// left become a stub each (cutPages): the prefix breaks there, once per
// page, not at every turn, and no old page is sent again in full. Past
// Limits.MaxContextTokens the conversation is cut once more (cutContext).

// Screenshots are the exception to the growing conversation: each is
// shown once, and the next iteration drops it (dropScreenshots). Kept, a
// screenshot (about imageTokens) would be billed again, even cached, at
// every later request, which costs more after two in-page steps than
// sending the turn before it again, and fills the context.

// dropScreenshots takes the screenshots out of msgs, messages the model
// was shown: a marked observation keeps its text, a screenshot the model
// asked for becomes a line.
func dropScreenshots(msgs []contract.Message) {
	for i := range msgs {
		m := &msgs[i]
		switch {
		case len(m.Images) == 0, m.Role != contract.RoleUser:
			// A native tool's result keeps its picture: its API pairs them.
		case strings.HasPrefix(m.Content, obsHeader):
			m.Content, m.Images = strings.TrimSuffix(m.Content, marksNote), nil
		default:
			m.Content, m.Images = "(screenshot omitted: shown once)", nil
		}
	}
}

// imageTokens is what a screenshot counts for in the conversation's size:
// about what providers bill for a viewport's image.
const imageTokens = 1500

// pageStub is what an observation of a page the model left becomes: its
// notices (a download, a dialog answered, a tab opened: what happened
// then), and a line for its page.
func (r *run) pageStub(step, url string, notices []string) string {
	return step + "\n" + r.fence.wrap(strings.Join(notices, "")+"(snapshot of "+url+" omitted: the page changed)")
}

// screenshotStub is what a screenshot of a page the model left becomes.
const screenshotStub = "(screenshot omitted: the page changed)"

// cutPages rewrites the observations and screenshots in msgs, all of pages
// the model has left, to a stub each, and says what it cut ("" when there
// was nothing left to cut: they were stubs already). It changes msgs in
// place: the caller's copy.
func (r *run) cutPages(msgs []contract.Message) string {
	before := contextTokens(msgs)
	n := 0
	for i := range msgs {
		m := &msgs[i]
		if m.Role != contract.RoleUser {
			continue
		}
		switch {
		case strings.HasPrefix(m.Content, obsHeader):
			step, rest, _ := strings.Cut(m.Content, "\n")
			url, notices := header(rest)
			if url == "" {
				continue // a stub already
			}
			m.Content, m.Images = r.pageStub(step, url, notices), nil
			n++
		case len(m.Images) > 0:
			m.Content, m.Images = screenshotStub, nil
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("the page changed: %d observations of the pages left were cut to a line each (the conversation's prefix breaks here), about %d tokens to %d",
		n, before, contextTokens(msgs))
}

// leftPage cuts the pages the model left from a copy of the history
// (cutPages) and says so in the step; apply keeps the cut history.
func (r *run) leftPage(msgs []contract.Message, out *iterOut, p *progress) []contract.Message {
	msgs = slices.Clone(msgs)
	cut := r.cutPages(msgs)
	if cut == "" {
		return msgs
	}
	out.history = msgs
	p.set(func(s *Step) { s.Context = strings.TrimPrefix(s.Context+"; "+cut, "; ") }, "waiting for the model")
	return msgs
}

// header reads an observation's header: its URL ("" in a stub) and the
// notices that say what happened (a download, a dialog, a tab), each line
// with its end.
func header(obs string) (url string, notices []string) {
	for line := range strings.Lines(obs) {
		switch {
		case line == "Snapshot:\n" || line == outline.DeltaHeader:
			return url, notices
		case url == "" && strings.HasPrefix(line, "URL: "):
			url = strings.TrimSuffix(strings.TrimPrefix(line, "URL: "), "\n")
		case strings.HasPrefix(line, "Notice: the URL changed from "), strings.Contains(line, " disappeared since the last snapshot"):
			// What changed against the snapshot before: the stub and the
			// next observation say it.
		case strings.HasPrefix(line, "Notice: "):
			notices = append(notices, line)
		}
	}
	return url, notices
}

// contextTokens estimates the conversation's size: four bytes a token of
// its text, and imageTokens a screenshot.
func contextTokens(msgs []contract.Message) int {
	n := (len(promptText(msgs)) + 3) / 4
	for _, m := range msgs {
		n += imageTokens * len(m.Images)
	}
	return n
}

// cutContext cuts the conversation when it holds more than the limit:
// every observation keeps its header and loses its page text, every
// screenshot goes, and the next observation is whole. It happens in this
// one place, rarely, and says so (Step.Context); it returns "" when the
// conversation fits.
func (r *run) cutContext() string {
	limit := r.a.cfg.lim.MaxContextTokens
	before := contextTokens(r.msgs)
	if limit <= 0 || before <= limit {
		return ""
	}
	for i := range r.msgs {
		m := &r.msgs[i]
		switch {
		case m.Role != contract.RoleUser:
		case strings.HasPrefix(m.Content, obsHeader):
			m.Content, m.Images = trimmedObservation(m.Content), nil
		case len(m.Images) > 0:
			m.Images = nil
			m.Content = "(screenshot omitted: an older view of the page)"
		}
	}
	after := contextTokens(r.msgs)
	if after >= before {
		return "" // nothing left to cut: the rules and the task alone
	}
	r.wantFull = true
	return fmt.Sprintf("the conversation held about %d tokens, past the limit of %d: older observations were cut to their header and screenshots dropped, leaving about %d; the next observation is the whole page",
		before, limit, after)
}
