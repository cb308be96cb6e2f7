package agent

import (
	"io"

	"github.com/webagent/webagent/contract"
)

// Masker hides secret values, in every encoding the loop masks (raw,
// URL-encoded, HTML entities, JSON escapes, base64), in text the loop does
// not produce itself: the browser's log, for one. Give it the task's
// Secrets.
type Masker struct{ s *secrets }

// NewMasker returns a Masker for the secrets (keys NAME or NAME@ORIGIN).
func NewMasker(secrets map[string]string) *Masker {
	return &Masker{s: newSecrets(secrets, "")}
}

// Mask replaces every form of every value by its <secret>NAME</secret>
// placeholder.
func (m *Masker) Mask(text string) string { return m.s.mask(text) }

// Fill puts the secrets into an action for a front end other than the
// loop (an MCP server), as the loop does: a <secret>NAME</secret>
// placeholder is filled only in type's text, and the action then carries
// the origins its field must be on (a secret needs one: NAME@ORIGIN). A
// placeholder anywhere else is an *ActionError naming the secret, never
// its value.
func (m *Masker) Fill(a contract.Action) (contract.Action, error) { return m.s.fillAction(a) }

// Writer returns a writer that masks what it passes to w. Each Write is
// masked on its own: a log line, as zerolog writes one per call.
func (m *Masker) Writer(w io.Writer) io.Writer {
	if len(m.s.values) == 0 {
		return w
	}
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
