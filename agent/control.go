package agent

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Control lets a person take the browser from the loop and hand it back
// (package liveview's lease implements it). The loop acts only between Act
// and its release, one iteration at a time; a person's request is granted
// when the loop releases, so the agent never acts while a person holds
// control, and a person never gets the browser in the middle of a step.
type Control interface {
	// Act waits while a person holds or asked for control, until they
	// hand it back (or ctx ends), then counts the loop as acting until
	// release is called. back says what happened while the person held
	// control; nil when no one did.
	Act(ctx context.Context) (release func(), back *Handback, err error)
	// Wanted reports whether a person asked for control or holds it: the
	// loop runs no more calls of the reply it is acting on.
	Wanted() bool
	// Handover asks a person to take over for reason (a CAPTCHA, a
	// second factor), waits up to wait for one to, then until they hand
	// back. It returns nil when no one took over in time.
	Handover(ctx context.Context, reason string, wait time.Duration) (*Handback, error)
}

// Handback is what happened while a person held control.
type Handback struct {
	Held  time.Duration
	Pages []string // the URLs the tab went to, in order
	Note  string   // what the person wrote for the agent on handing back
	Idle  bool     // control came back because the person was idle past the human timeout
	// Fields name the fields the person typed into, as a snapshot names
	// them (textbox "Verification code").
	Fields []string
	// Typed is what the person typed, one text per field: never shown to
	// the model, and masked from then on wherever it shows (a field's
	// value in a snapshot).
	Typed []string
	// Actions are what the person did, element by element, in order (see
	// PersonAction): the takeover's record keeps them as its Calls, which
	// a routine can redo (package routine).
	Actions []PersonAction
}

// WithControl lets a person take the browser between steps (see Control).
// The time a person holds control does not count against the iteration's
// bound: the loop waits between iterations. The task's bound still holds.
// A person idle past the human timeout (WithHumanTimeout) hands control
// back; that is the Control's to enforce.
func WithControl(c Control) Option { return func(cfg *config) { cfg.control = c } }

// ToolTakeover names the step a takeover adds to the result and the trace.
const ToolTakeover = "takeover"

// stoppedForPerson is the outcome of a call not run because a person asked
// for control.
const stoppedForPerson = "not run: a person took control of the browser before this call"

// boundary is the loop's step boundary: it hands the page to a person who
// asked (or whom the page needs: a human check), waits for them to hand it
// back, and tells the model what they did. It returns the release of the
// iteration that follows.
func (r *run) boundary(taskCtx context.Context, iter int) (func(), error) {
	c := r.a.cfg.control
	if c == nil {
		return func() {}, nil
	}
	if r.checkSeen && !r.handedOver[r.view.url] {
		r.handedOver[r.view.url] = true
		why := "The page shows a check only a person may pass (" + r.lastCheck + "). Take over, pass it, then hand back."
		hb, err := c.Handover(taskCtx, why, r.a.cfg.lim.HumanTimeout)
		if err != nil {
			return nil, err
		}
		r.takeover(taskCtx, iter, hb)
	}
	release, hb, err := c.Act(taskCtx)
	if err != nil {
		return nil, err
	}
	r.takeover(taskCtx, iter, hb)
	return release, nil
}

// takeover records a hold that ended: a step of its own in the result and
// the trace, and a brief for the model, whose next observation is whole.
// What the person typed is never shown: the new values of the fields they
// changed are masked from then on, as secrets are.
func (r *run) takeover(ctx context.Context, iter int, hb *Handback) {
	if hb == nil {
		return
	}
	before := r.view.text
	after := ""
	sctx, cancel := context.WithTimeout(ctx, r.a.cfg.lim.StartTimeout)
	snap, err := r.a.browser.Snapshot(sctx)
	cancel()
	if err == nil {
		after = snap.Text
	}
	calls := r.personCalls(hb.Actions, snap.URL)
	for _, v := range hb.Typed {
		r.maskTyped(v, snap.URL)
	}
	fields := r.personFields(before, after, snap.URL)
	for _, f := range hb.Fields {
		if f = r.sec.Mask(f); !slices.Contains(fields, f) && len(fields) < 20 {
			fields = append(fields, f)
		}
	}
	brief := r.brief(hb, fields)
	r.notes = append(r.notes, brief)
	r.wantFull = true
	r.checkSeen = false
	r.record(Step{Iteration: iter, StartMS: ms(time.Since(r.started)) - hb.Held.Milliseconds(), URL: r.sec.Mask(snap.URL),
		Actions: []ActionRecord{{Tool: ToolTakeover, Outcome: brief, MS: hb.Held.Milliseconds(), Calls: calls}}})
}

// brief is what the model is told of a hold.
func (r *run) brief(hb *Handback, fields []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "A person had control of the browser for %s", hb.Held.Round(time.Second))
	if hb.Idle {
		fmt.Fprintf(&b, "; they were idle past %s, so control came back to you", r.a.cfg.lim.HumanTimeout)
	} else {
		b.WriteString(" and handed it back to you")
	}
	b.WriteString(".")
	if len(hb.Pages) > 0 {
		pages := make([]string, len(hb.Pages))
		for i, p := range hb.Pages {
			pages[i] = r.sec.Mask(p)
		}
		fmt.Fprintf(&b, " Pages they went to: %s.", strings.Join(pages, ", "))
	}
	if len(fields) > 0 {
		fmt.Fprintf(&b, " Fields they changed: %s (what they typed is not shown to you).", strings.Join(fields, ", "))
	}
	if n := strings.TrimSpace(hb.Note); n != "" {
		fmt.Fprintf(&b, " They wrote for you: %q.", r.sec.Mask(n))
	}
	b.WriteString(" The next observation shows the page as it is now; go on with the task from there.")
	return b.String()
}

// fieldLine reads a snapshot line of a form field: its role, its name and
// the rest (value and states), without its ref.
var fieldLine = regexp.MustCompile(`^\s*(?:- )?(textbox|searchbox|combobox|checkbox|radio|switch|slider|spinbutton|listbox)\s+"((?:[^"\\]|\\.)*)"(.*?)\s*(?:\[ref=[^\]]*\])?\s*$`)

// fieldValue is a field's value="..." in a snapshot line.
var fieldValue = regexp.MustCompile(`value="((?:[^"\\]|\\.)*)"`)

// personFields names the fields whose line changed between two snapshots
// (role "name"), and masks the new values of those with one from then on.
func (r *run) personFields(before, after, url string) []string {
	old := map[string]string{}
	for l := range strings.Lines(before) {
		if m := fieldLine.FindStringSubmatch(l); m != nil {
			old[m[1]+` "`+m[2]+`"`] = m[3]
		}
	}
	var changed []string
	seen := map[string]bool{}
	for l := range strings.Lines(after) {
		m := fieldLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		name := m[1] + ` "` + m[2] + `"`
		if prev, ok := old[name]; (ok && prev == m[3]) || seen[name] {
			continue
		}
		seen[name] = true
		if v := fieldValue.FindStringSubmatch(m[3]); v != nil {
			r.maskTyped(v[1], url)
		}
		if len(changed) < 20 {
			changed = append(changed, r.sec.Mask(name))
		}
	}
	return changed
}

// maskTyped masks what a person typed from now on, as a secret is.
func (r *run) maskTyped(v, url string) {
	if len([]rune(v)) < minMaskedTyping || r.sec.Mask(v) != v {
		return
	}
	r.typed++
	r.sec.Add(fmt.Sprintf("TYPED_BY_PERSON_%d", r.typed), v, url)
}

// minMaskedTyping is the shortest value a person typed that is masked: a
// shorter one would mask the same characters everywhere else on the page.
const minMaskedTyping = 4

// iterationStarts tells the observers that iteration i starts, and when its
// bound falls.
func (r *run) iterationStarts(i int) {
	var deadline time.Time
	if d := r.a.cfg.lim.IterationTimeout; d > 0 {
		deadline = time.Now().Add(d)
	}
	for _, o := range r.a.cfg.observers {
		if io, ok := o.(IterationObserver); ok {
			io.OnIteration(i, deadline)
		}
	}
}
