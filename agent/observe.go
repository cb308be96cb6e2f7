package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/internal/outline"
)

// Observations that only grow the conversation: after an action that left
// the document in place, the model reads what changed (a delta) under the
// page's header; a whole snapshot comes when the document changed, when
// the delta would not be much smaller, every FullSnapshotEvery iterations,
// and when the model calls snapshot. Older observations are never
// rewritten, so each request starts with the previous one, which a
// provider's prompt cache serves.

// ToolSnapshot is the loop's tool that shows the whole page again.
const ToolSnapshot = "snapshot"

// FullSnapshotEvery is how many iterations may pass with deltas before the
// observation is a whole snapshot again.
const FullSnapshotEvery = 8

// deltaShare is the largest size of a delta, as a share of the whole
// snapshot, that is sent instead of it.
const deltaShare = 0.5

// view is the page as the model last read it: the latest observation's
// snapshot, brought up to date by deltas.
type view struct {
	doc, url string
	text     string // the latest snapshot's text
	// shown is text as the model read it, secrets masked: the next delta
	// is taken from it, so that applied to it, the delta rebuilds the
	// next snapshot as shown, and cuts no secret short.
	shown  string
	fullAt int // the iteration of the latest whole snapshot; 0 none
}

// left reports whether snap is of another page than the one the model
// read: another document (a navigation, a reload, another tab) or, in
// the same document, another URL (a single-page app's route). Not on the
// first observation.
func (v view) left(snap contract.Snapshot) bool {
	return v.fullAt > 0 && (snap.Document != v.doc || snap.URL != v.url)
}

// snapshotTool asks for the whole page in the next observation.
var snapshotTool = &tool{name: ToolSnapshot, budget: 5 * time.Second, local: true,
	desc: "Show the whole page again. After an action that stays on the same page, the next observation lists only what changed " +
		"(lines added, removed and changed, in the page's order; every other line and ref is as before). " +
		"Call this when you need the whole page; with full false, the next observation is again only what changed (to look again after waiting).",
	props: []prop{{name: "full", typ: "boolean", desc: "the whole page (default true)"}},
	do: func(_ context.Context, _ *run, c call, out *iterOut) (contract.Outcome, error) {
		if c.args.Full != nil && !bool(*c.args.Full) {
			return contract.Outcome{Text: "the next observation shows what changed"}, nil
		}
		out.wantFull = true
		return contract.Outcome{Text: "the next observation shows the whole page"}, nil
	}}

// observe renders the observation of snap for iteration iter: a delta
// against prev when it may be one, else the whole snapshot. It returns the
// observation, the view it leaves, and whether it is a delta.
func (r *run) observe(snap contract.Snapshot, iter int, prev view, wantFull bool) (string, view, bool) {
	next := view{doc: snap.Document, url: snap.URL, text: snap.Text, shown: r.sec.Mask(snap.Text), fullAt: iter}
	// A recording (the run cache) matches whole snapshots.
	wantFull = wantFull || r.a.cfg.recording != nil
	if !wantFull && prev.fullAt > 0 && iter-prev.fullAt < FullSnapshotEvery &&
		snap.Document != "" && snap.Document == prev.doc && snap.URL == prev.url && snap.HumanCheck == "" {
		d := outline.Diff(prev.shown, next.shown)
		if float64(d.Tokens) <= deltaShare*float64(d.Full) {
			next.fullAt = prev.fullAt
			return r.render(snap, iter, d.Text()), next, true
		}
	}
	return r.render(snap, iter, "Snapshot:\n"+snap.Text), next, false
}

// render writes an observation of snap with body, a whole snapshot or a
// delta.
func (r *run) render(snap contract.Snapshot, iter int, body string) string {
	return observationWith(snap, body, r.sec, r.fence, iter, r.a.cfg.lim.MaxIterations)
}

// promptText is a request's messages as the prefix is measured: each
// message's role, text, tool call id and calls, in order, as the eval's
// estimate counts tokens (modelserver: four bytes a token).
func promptText(msgs []contract.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString(string(m.Role))
		b.WriteString(m.Content)
		b.WriteString(m.ToolCallID)
		for _, c := range m.ToolCalls {
			b.WriteString(c.ID)
			b.WriteString(c.Name)
			b.WriteString(c.Arguments)
		}
	}
	return b.String()
}

// prefixTokens estimates the tokens of cur that repeat the start of prev:
// what a provider's prompt cache could serve.
func prefixTokens(prev, cur string) int {
	n := min(len(prev), len(cur))
	i := 0
	for i < n && prev[i] == cur[i] {
		i++
	}
	return i / 4
}

// cacheKeyOf names the constant part of a run's requests, the rules and
// the tools, for a provider's prompt cache (contract.Request.CacheKey).
func cacheKeyOf(system string, defs []contract.ToolDef) string {
	h := sha256.New()
	h.Write([]byte(system))
	for _, d := range defs {
		h.Write([]byte(d.Name))
		h.Write([]byte(d.Description))
		h.Write(d.Parameters)
	}
	return "webagent-" + hex.EncodeToString(h.Sum(nil)[:8])
}
