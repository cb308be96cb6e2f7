package secret

import (
	"io"

	"github.com/webagent/webagent/contract"
)

// Masker hides secret values, in every encoding a Set masks (raw,
// URL-encoded, HTML entities, JSON escapes, base64, sign-in codes typed),
// in text the agent's loop does not produce itself: the browser's log, a
// trace, for instance. Give it the task's Secrets. Unlike a Set, it binds
// a secret without an origin to none: such a secret is masked, never
// filled.
type Masker struct{ s *Set }

// NewMasker returns a Masker for the secrets (keys NAME or NAME@ORIGIN).
func NewMasker(secrets map[string]string) *Masker {
	return &Masker{s: New(secrets, "")}
}

// Mask replaces every form of every value by its <secret>NAME</secret>
// placeholder.
func (m *Masker) Mask(text string) string { return m.s.Mask(text) }

// Fill puts the secrets into an action for a front end other than the
// loop (an MCP server), as the loop does: a <secret>NAME</secret>
// placeholder is filled only in type's text, and the action then carries
// the origins its field must be on (a secret needs one: NAME@ORIGIN). A
// placeholder anywhere else is a *contract.ActionError naming the secret,
// never its value.
func (m *Masker) Fill(a contract.Action) (contract.Action, error) { return m.s.Fill(a) }

// Add hides value from now on, as the secret name bound to origin: a
// secret the task learned while it ran (a code from its inbox).
func (m *Masker) Add(name, value, origin string) { m.s.Add(name, value, origin) }

// AddLink is Add for a link goto may open (Set.AddLink).
func (m *Masker) AddLink(name, link, origin string) { m.s.AddLink(name, link, origin) }

// Writer returns a writer that masks what it passes to w. Each Write is
// masked on its own: a log line, as zerolog writes one per call.
func (m *Masker) Writer(w io.Writer) io.Writer {
	return maskWriter{m: m, w: w}
}

type maskWriter struct {
	m *Masker
	w io.Writer
}

func (mw maskWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(mw.w, mw.m.Mask(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
