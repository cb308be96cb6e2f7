package browser

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/webagent/webagent/contract"
)

// snapshotJS is the page walker, a function of (floor, budget).
var snapshotJS = program("snapshot")

// DefaultSnapshotTokens is the snapshot's default size budget in estimated
// tokens (o200k_base). On the saved news and article pages of the benchmark
// corpus it keeps the median snapshot far below half the size of Playwright
// MCP's, while every actionable element keeps its line.
const DefaultSnapshotTokens = 3000

// snapState is what the snapshot keeps between calls; it is guarded by the
// Browser's sem.
type snapState struct {
	tokens int // the budget
	maxRef int // the highest ref number handed out

	// The previous snapshot, to say what changed.
	taken   bool
	tab     *tab // the tab of the latest snapshot
	url     string
	loader  string
	refs    map[string]bool
	dialogs map[string]bool
	popups  int

	frames frameSet // cross-origin frames

	doc        *tabDoc           // the PDF of the latest snapshot that showed one
	docRegions map[string]string // its folded pages, while the latest snapshot shows it
}

// setupSnapshot applies the snapshot's options at launch.
func (b *Browser) setupSnapshot(ctx context.Context, opts Options) error {
	b.snap.tokens = opts.SnapshotTokens
	if b.snap.tokens <= 0 {
		b.snap.tokens = DefaultSnapshotTokens
	}
	b.snap.frames.block = opts.BlockNonLoopback
	if opts.BlockNonLoopback {
		return blockNonLoopback(ctx, b.target)
	}
	return nil
}

// Snapshot describes the current page. If a navigation is in progress, or
// was asked for by the page and not started yet (at most 5 s), it first
// waits, as long as ctx allows, for the new document to be ready, and
// briefly for its load event; a child frame's navigation in flight is
// waited for up to 5 s, and then reported in the notices as still loading.
// A navigation that replaces the document while it is read (the context
// destroyed, the target navigated, a frame detached) makes the snapshot
// wait for the new document and read that one; only a page that never gets
// a document is an error.
//
// The Text is an outline of the rendered page, indented by two spaces per
// level. An element the model can act on has a line
//
//	<role> "<name>"<states> [ref=<id>]
//
// where the role is the element's ARIA role, explicit or implicit (link,
// button, textbox, searchbox, checkbox, radio, combobox, listbox, slider,
// spinbutton, tab, menuitem, option, …), or clickable for an element that
// only a click handler or a pointer cursor marks as actionable; the name is
// its accessible name, JSON-quoted; and the states are among value="…",
// checked, mixed, selected, pressed, expanded, collapsed, focused, disabled,
// readonly and required. Other lines are headings (heading "Title"
// [level=2]), text, list items ("- text"), table rows ("| a | b |", with
// their controls indented under them), the options of a select
// (option "France" selected), images with a text alternative (img "Logo"),
// open dialogs (dialog "Name") and iframes (iframe "Title") with their
// content indented under them, also for frames of another origin. Elements
// that are not rendered (display: none, visibility: hidden, no size) are
// left out.
//
// The outline is budgeted (Options.SnapshotTokens, in tokens estimated
// with a margin): past the budget, every actionable element and structure
// line stays, text and headings are kept by their nearness to the viewport
// (the first rows of long tables and lists first), and each region of
// lines left out becomes one line such as `… 40 more rows of table
// "Orders" below, text not shown (scroll down or extract to read them)` or
// `… 120 lines of text (2300 words, 4 headings) below not shown (scroll
// down or extract to read)`.
//
// The Notices say what happened since the previous snapshot: dialogs that
// were answered, a changed URL, a new tab, a dialog that opened in the
// page, a cookie banner answered or left to the model (Options.Consent),
// and how many actionable elements appeared and disappeared.
func (b *Browser) Snapshot(ctx context.Context) (contract.Snapshot, error) {
	o, err := b.begin(ctx)
	if err != nil {
		return contract.Snapshot{}, err
	}
	defer o.end()
	snap, err := o.snapshot()
	if o.revived(err) { // the tab crashed or the browser died meanwhile and was brought back
		snap, err = o.snapshot()
	}
	return snap, o.fail("snapshot", err)
}

// walkResult is what the walker returns.
type walkResult struct {
	URL   string `json:"url"`
	Title string `json:"title"`
	// ContentType is the document's MIME type: application/pdf for
	// Chromium's PDF viewer, whose text the walker cannot read.
	ContentType string      `json:"contentType"`
	Text        string      `json:"text"`
	Tokens      int         `json:"tokens"`
	XFrames     int         `json:"xframes"`
	Omitted     int         `json:"omitted"`
	Partial     bool        `json:"partial"` // the walk ran out of its time budget (past its floor of nodes)
	MaxRef      int         `json:"maxRef"`
	Check       *humanCheck `json:"check"`  // the human check the document shows (js/humanCheck.js), or nil
	Timing      []float64   `json:"timing"` // ms: layout, walk, fitting the budget (for the debug log)

	unsettled bool // the page kept navigating; this is the last complete walk
}

// snapshot reads the page and says what changed since the previous
// snapshot.
func (o *op) snapshot() (contract.Snapshot, error) {
	b := o.b
	res, loading, err := o.readPage()
	if err != nil {
		return contract.Snapshot{}, err
	}
	b.snap.docRegions = nil
	if res.ContentType == pdfMIME {
		if err := o.showDocument(&res); err != nil {
			return contract.Snapshot{}, err
		}
	}
	notes := b.notices.take()
	if refused := b.refusedSummary(); refused != "" {
		notes = append(notes, refused)
	}
	notes = append(notes, b.changes(res)...)
	if s := b.nav.state(); s.parseLapsed() {
		notes = append(notes, "the page is still loading: this is what has arrived so far; take a new snapshot later to see more")
	}
	for _, u := range loading {
		notes = append(notes, fmt.Sprintf("a frame is still loading %s: what it shows may change; take a new snapshot to see it", u))
	}
	if res.Partial {
		notes = append(notes, "the page is too large to read whole: this snapshot is partial (it says where it stops)")
	}
	if res.unsettled {
		notes = append(notes, "the page kept navigating while it was read: this snapshot may already be out of date")
	}
	text := res.Text
	var check humanCheck
	if res.Check != nil {
		check = *res.Check
		text = check.line() + "\n" + text
	}
	tools, err := o.listPageTools()
	if err != nil {
		return contract.Snapshot{}, err
	}
	if list := pageToolsText(tools, origin(res.URL)); list != "" {
		text += "\n" + list
	}
	return contract.Snapshot{
		PageTools:        tools,
		URL:              res.URL,
		Title:            res.Title,
		Document:         b.snap.document(),
		Text:             text,
		Notices:          notes,
		HumanCheck:       check.Name,
		HumanCheckBlocks: check.Whole,
	}, nil
}

// readPage walks the page once it is ready. A navigation that meets the
// walk (the document replaced, the execution context destroyed, the target
// navigated, a navigation requested or started meanwhile) is waited for,
// and the new document walked, as long as o's context allows. Only a page
// that never gets a document is an error. It returns the URLs of child
// frames still loading after their grace.
func (o *op) readPage() (walkResult, []string, error) {
	b := o.b
	var (
		last  walkResult // the latest complete walk
		have  bool
		quiet int // failed walks that no navigation explained
	)
	for try := 1; ; try++ {
		loading, err := b.nav.settleFrames(o.ctx)
		if err != nil {
			o.stopLoading = true
			return walkResult{}, nil, err
		}
		o.answerConsent() // a cookie banner is answered first (Options.Consent)
		// Running animations end first; the page's listeners are looked
		// up meanwhile, and again after animations that ran.
		found := o.lookUpListeners(b.target)
		if o.settleAnimations() {
			found.wait()
			found = o.lookUpListeners(b.target)
		}
		found.withWalk = true
		s0 := b.nav.state()
		res, err := o.walk(found)
		s1 := b.nav.state()
		moved := s1.moved(s0) || s1.requestedSince(s0) || s1.pending != "" || s1.frameNavs > s0.frameNavs
		switch {
		case err == nil && !moved:
			return res, loading, nil
		case o.ctx.Err() != nil:
			return walkResult{}, nil, err
		case err != nil && !moved && !interruptedByNavigation(err):
			return walkResult{}, nil, err
		}
		if err == nil {
			last, have = res, true
		}
		b.log.Debug("snapshot met a navigation; reading the new document", "error", err, "try", try, "moved", moved)
		if try >= snapshotTries {
			if have {
				last.unsettled = true
				return last, loading, nil
			}
			return walkResult{}, nil, fmt.Errorf("the page kept navigating and never settled on a document: %w", err)
		}
		if !moved {
			// The document went away but no navigation shows yet: wait for
			// one to show, briefly. A failure no navigation explains is
			// retried only a few times.
			if quiet++; quiet > quietRetries {
				return walkResult{}, nil, err
			}
			if _, werr := b.nav.wait(o.ctx, navShowGrace, func(s navState) bool {
				return s.moved(s0) || s.requestedSince(s0) || s.pending != ""
			}); werr != nil {
				return walkResult{}, nil, werr
			}
		}
	}
}

// The limits of readPage: how many walks a snapshot takes at most while the
// page keeps navigating, how many failed walks with no navigation seen are
// tried again, and how long such a failure waits for a navigation to show.
const (
	snapshotTries = 8
	quietRetries  = 2
	navShowGrace  = time.Second
)

// errNoDocument: the walker found no document element (a document being
// replaced).
var errNoDocument = errors.New("the page has no document yet")

// interruptedByNavigation reports whether err is what CDP or the walker
// give when the document went away during the call.
func interruptedByNavigation(err error) bool {
	if errors.Is(err, errNoDocument) {
		return true
	}
	var ee *chromedp.ExceptionError
	if errors.As(err, &ee) {
		// The walker threw: the document changed under it.
		return true
	}
	if !isProtocolError(err) {
		return false
	}
	msg := err.Error()
	for _, s := range navigationErrors {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// navigationErrors are the messages of CDP errors met when a document or
// frame goes away during a command.
var navigationErrors = []string{
	"Inspected target navigated or closed",
	"Execution context was destroyed",
	"Cannot find context with specified id",
	"Cannot find default execution context",
	"No frame with given id",
	"Frame with the given id was not found",
	"Could not find node with given id",
	"No node with given id",
	"Node is detached from document",
	"Cannot find object with id",
	"Could not find object with given id",
}

// walk runs the walker in the page, once its listeners found are
// registered, and in its cross-origin frames.
func (o *op) walk(found *listenerLookup) (walkResult, error) {
	b := o.b
	budget := b.snap.tokens
	if budget <= 0 {
		budget = DefaultSnapshotTokens
	}
	t0 := time.Now()
	if err := o.registered(found); err != nil {
		return walkResult{}, err
	}
	r, err := o.evalWalker(b.snap.maxRef, budget, found.marks)
	if err != nil {
		return walkResult{}, err
	}
	if r == nil || r.Subtype == runtime.RemoteObjectSubtypeNull {
		return walkResult{}, errNoDocument
	}
	var res walkResult
	if err := decodeValue(r, &res); err != nil {
		return walkResult{}, err
	}
	b.snap.maxRef = max(b.snap.maxRef, res.MaxRef)
	if res.XFrames > 0 || b.snap.frames.len() > 0 {
		if res, err = o.walkFrames(res, budget); err != nil {
			return walkResult{}, err
		}
	}
	b.log.Debug("snapshot", "took", time.Since(t0), "chars", len(res.Text), "tokens", res.Tokens, "timing", res.Timing, "url", res.URL)
	return res, nil
}

// keepWalkerJS runs the walker and keeps it in webagent's world of the
// page, for the next walks of the same document (walkStoredJS).
var keepWalkerJS = program("keepWalker")

// markedWalkStoredJS and markedKeepWalkerJS are walkStoredJS and
// keepWalkerJS after registryJS's records with no new node: one call.
var (
	markedWalkStoredJS = program("markedWalkStored")
	markedKeepWalkerJS = program("markedKeepWalker")
)

// evalWalker runs the walker with (floor, budget) in webagent's world of
// the page: a call of the walker that world keeps once it has one, else
// the walker's source (about 95 kB), kept there for the next walks. The
// page's own world (Options.Observable) is sent the source every time:
// the page's scripts could replace a walker kept there. With marks, the
// same call first sets the listener registry's records (registryJS with
// no new node).
func (o *op) evalWalker(floor, budget int, marks *listenerMarks) (*runtime.RemoteObject, error) {
	b := o.b
	stored, keep := func() string { return jsCall(walkStoredJS, floor, budget) }, func() string { return jsCall(keepWalkerJS, floor, budget) }
	if marks != nil {
		stored = func() string { return jsCall(markedWalkStoredJS, marks.moves, marks.keys, floor, budget) }
		keep = func() string { return jsCall(markedKeepWalkerJS, marks.moves, marks.keys, floor, budget) }
	}
	return o.evaluate(func() (*runtime.RemoteObject, *runtime.ExceptionDetails, error) {
		r, err := inWorld(o.ctx, &b.worlds, b.target, func(wd *world) (runtime.EvaluateResult, error) {
			p := runtime.EvaluateParams{ContextID: wd.id, ReturnByValue: new(true), Silent: new(true)}
			if wd.id == 0 {
				p.Expression = jsCall(snapshotJS, floor, budget)
				return cdp.Call(o.ctx, b.target, runtime.Evaluate, p)
			}
			if wd.keepsWalker() {
				p.Expression = stored()
				r, err := cdp.Call(o.ctx, b.target, runtime.Evaluate, p)
				if err != nil || r.ExceptionDetails != nil || r.Result == nil || r.Result.Subtype != runtime.RemoteObjectSubtypeNull {
					return r, err
				}
				// null: the world has no walker (or the page no document),
				// the source is sent.
			}
			p.Expression = keep()
			r, err := cdp.Call(o.ctx, b.target, runtime.Evaluate, p)
			if err == nil && r.ExceptionDetails == nil {
				wd.keepWalker()
			}
			return r, err
		})
		if err != nil {
			return nil, nil, err
		}
		return r.Result, r.ExceptionDetails, nil
	})
}

// changes says what changed since the previous snapshot, and remembers this
// one.
func (b *Browser) changes(res walkResult) []string {
	s := &b.snap
	st := b.nav.state()
	refs := map[string]bool{}
	for _, r := range refsIn(res.Text) {
		refs[r] = true
	}
	dialogs := map[string]bool{}
	for line := range strings.Lines(res.Text) {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, "dialog") && !strings.Contains(l, "[ref=") {
			dialogs[l] = true
		}
	}
	var out []string
	// After a switch of tabs the previous snapshot was of another page.
	if s.taken && s.tab == b.cur {
		switch {
		case res.URL != s.url:
			out = append(out, fmt.Sprintf("the URL changed from %s to %s", s.url, res.URL))
		case string(st.loader) != s.loader:
			out = append(out, "the page was reloaded")
		default:
			for d := range dialogs {
				if !s.dialogs[d] {
					out = append(out, "a dialog opened in the page: "+d)
				}
			}
			for d := range s.dialogs {
				if !dialogs[d] {
					out = append(out, "a dialog closed: "+d)
				}
			}
			appeared, gone := 0, 0
			for r := range refs {
				if !s.refs[r] {
					appeared++
				}
			}
			for r := range s.refs {
				if !refs[r] {
					gone++
				}
			}
			if appeared > 0 || gone > 0 {
				out = append(out, fmt.Sprintf("%s appeared and %s disappeared since the last snapshot",
					plural(appeared, "element"), plural(gone, "element")))
			}
		}
		if st.popups > s.popups {
			out = append(out, fmt.Sprintf("a new tab opened (%s)", st.popup.url))
		}
	}
	s.taken, s.tab, s.url, s.loader = true, b.cur, res.URL, string(st.loader)
	s.refs, s.dialogs, s.popups = refs, dialogs, st.popups
	return out
}

// document names the document of the latest snapshot: its tab and load.
func (s *snapState) document() string {
	if s.tab == nil {
		return ""
	}
	return s.tab.id + "/" + s.loader
}

// refsIn returns the refs of the actionable lines of a snapshot text.
func refsIn(text string) []string {
	var refs []string
	for line := range strings.Lines(text) {
		line = strings.TrimSuffix(line, "\n")
		if !strings.HasSuffix(line, "]") {
			continue
		}
		if i := strings.LastIndex(line, " [ref="); i >= 0 {
			refs = append(refs, line[i+len(" [ref="):len(line)-1])
		}
	}
	return refs
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
