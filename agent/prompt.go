package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/internal/outline"
	"github.com/webagent/webagent/secret"
)

const basePrompt = `You are a web agent. You complete the user's task by operating a real web browser through tools.

Each turn you receive an observation of the current page: its URL, its title, notices (what changed since the last observation: a new URL, a dialog that was answered, elements that appeared or disappeared, a new tab, a download), and a snapshot. In the snapshot every element you can act on stands on its own line with its role, its name in double quotes, its state and a [ref=ID]. After an action that stayed on the same page, the observation lists only what changed since the previous one, in the page's order ("+" added, "-" removed, "~" changed, "=" unchanged, to place the next); every other line and ref is as before, and the snapshot tool shows the whole page again. A ref stays valid while its element is on the page; after a navigation take refs from the new snapshot only. A line starting with "…" stands for content left out to keep the snapshot short; it says how to reach it (scroll, or extract to read the page's text, or read_region with the [region=rN] handle it ends with).

Rules:
- Call at least one tool in every reply. You may call several in order when the later ones do not depend on the page changing.
- Only what the snapshot shows is on the page; do not invent refs or URLs.
- When the task is complete, call done with the answer the user asked for, stated plainly.
- If the task cannot be done, call fail with the reason.`

// systemPrompt is the system message; it lists the secrets by name only
// (with what a generator types, never a value).
func systemPrompt(secretNames []string, human bool, f fence) string {
	p := basePrompt + "\n- " + f.rule()
	if human {
		p += "\n- When only the person who gave you the task can answer (a missing detail, a one-time code), call ask_human."
		p += "\n- When the snapshot starts with \"human check:\" (a CAPTCHA, a challenge page), never try to solve it or click it: call ask_human and ask the person to pass it in the browser; they get the page's address. Then go on."
	} else {
		p += "\n- When the snapshot starts with \"human check:\" (a CAPTCHA, a challenge page), never try to solve it or click it. If a challenge page stands in front of the site, wait a few seconds once: some pass by themselves. If the task needs the check passed, call fail and say so."
	}
	if len(secretNames) > 0 {
		p += "\n\nSecrets available (type them as <secret>NAME</secret>; their values are hidden from you): " +
			strings.Join(secretNames, ", ") + "."
	}
	return p
}

const reminder = "You did not call a tool. Call one of the tools now: act on the page, or call done or fail."

const obsHeader = "Observation, step "

// observation renders a whole snapshot for the model, with secret values
// masked and the page's text inside the run's fence.
func observation(s contract.Snapshot, sec *secret.Set, f fence, iter, max int) string {
	return observationWith(s, "Snapshot:\n"+s.Text, sec, f, iter, max)
}

// observationWith renders an observation: its step, the page's header
// (URL, title, notices) and body, a whole snapshot or a delta.
func observationWith(s contract.Snapshot, body string, sec *secret.Set, f fence, iter, max int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "URL: %s\nTitle: %s\n", s.URL, s.Title)
	for _, n := range s.Notices {
		fmt.Fprintf(&b, "Notice: %s\n", n)
	}
	b.WriteString(body)
	return fmt.Sprintf("%s%d of %d.\n", obsHeader, iter, max) + f.wrap(sec.Mask(b.String()))
}

// trimmedObservation keeps an old observation's header (step, URL, title,
// notices) and drops its snapshot or delta: what the one cut of a long
// conversation does (run.cutContext).
func trimmedObservation(obs string) string {
	i := strings.Index(obs, "Snapshot:\n")
	if j := strings.Index(obs, outline.DeltaHeader); j >= 0 && (i < 0 || j < i) {
		i = j
	}
	if i < 0 {
		return obs
	}
	// The fence's end: the last "<<<end page-content" line, which a note
	// after the fence (vision marks') does not hide.
	closing := obs[strings.LastIndex(obs, "\n")+1:]
	if k := strings.LastIndex(obs, "\n<<<end page-content "); k >= i {
		closing, _, _ = strings.Cut(obs[k+1:], "\n")
	}
	return obs[:i] + "(snapshot omitted: an older view of the page)\n" + closing
}

// safeArgs returns the arguments for records: valid JSON as is (secret
// values masked), anything else as a JSON string.
func safeArgs(raw string, sec *secret.Set) json.RawMessage {
	raw = sec.Mask(raw)
	if json.Valid([]byte(raw)) {
		return json.RawMessage(raw)
	}
	b, _ := json.Marshal(raw)
	return b
}
