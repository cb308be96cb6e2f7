package browser

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// guarded is a tab's CDP session that sends nothing once the context of a
// call has ended: an abandoned call cannot click, type or navigate late.
// (chromedp's own send races the context's end against the send queue and
// may still send.) Every command of the tab goes through it.
type guarded struct{ *chromedp.Target }

// Call sends the command unless ctx has ended.
func (g guarded) Call(ctx context.Context, method string, params, res any) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return g.Target.Call(ctx, method, params, res)
}

// tab is one page target the model can act in: the tab Launch opened, a
// popup or target=_blank page it opened, or a replacement of a crashed or
// frozen one (which keeps the id).
type tab struct {
	id     string // "t1", what the model names it by
	ctx    context.Context
	cancel func() // closes the target (runs once)
	target guarded
	nav    *navTracker
	// dead ends when the tab crashed or its target went away; its cause
	// is ErrCrashed or ErrDisconnected.
	dead context.Context
	kill context.CancelCauseFunc
	// bound: the binding of watchChanges is added; guarded by the Browser's
	// sem.
	bound bool
	// tools are the page tools its documents offer (pagetools.go).
	tools *pageTools
}

// newTab opens a new tab in the session's browser context. ctx bounds only
// the opening.
func (b *Browser) newTab(ctx context.Context, s *session, id string) (*tab, error) {
	var opts []chromedp.ContextOption
	if s.bcID != "" {
		opts = append(opts, chromedp.WithExistingBrowserContext(s.bcID))
	}
	tctx, cancel := chromedp.NewContext(s.ctx, opts...)
	return b.startTab(ctx, s, tctx, cancel, id)
}

// adopt attaches to a tab the page opened (a popup, target=_blank).
func (b *Browser) adopt(ctx context.Context, s *session, tid target.ID, id string) (*tab, error) {
	tctx, cancel := chromedp.NewContext(s.ctx, chromedp.WithTargetID(tid))
	return b.startTab(ctx, s, tctx, cancel, id)
}

// startTab runs the first call on a tab context and sets the tab up. The
// first call binds the tab's event loop to its context, so it runs with the
// long-lived tctx; ctx only cancels it (which closes the target).
func (b *Browser) startTab(ctx context.Context, s *session, tctx context.Context, cancel context.CancelFunc, id string) (*tab, error) {
	t := &tab{id: id, ctx: tctx, cancel: sync.OnceFunc(cancel)}
	stop := context.AfterFunc(ctx, t.cancel)
	err := chromedp.Do(tctx)
	if !stop() && err == nil {
		err = ctx.Err()
	}
	if err == nil && s.icpt != nil {
		err = s.icpt.followFrames(tctx)
	}
	if err == nil {
		err = b.setupTab(ctx, t)
	}
	if err != nil {
		t.cancel()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	return t, nil
}

// setupTab follows the tab's events, answers its dialogs and sets its
// viewport.
func (b *Browser) setupTab(ctx context.Context, t *tab) error {
	t.target = guarded{chromedp.FromContext(t.ctx).Target}
	t.dead, t.kill = context.WithCancelCause(context.Background())
	stop := context.AfterFunc(t.ctx, func() { t.kill(ErrDisconnected) })
	b.wg.Go(func() {
		<-t.dead.Done()
		stop()
	})
	tree, err := cdp.Call(ctx, t.target, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		return err
	}
	main := tree.FrameTree.Frame
	loadGrace := b.opts.LoadTimeout
	if loadGrace <= 0 {
		loadGrace = DefaultLoadTimeout
	}
	t.nav = newNavTracker(t.target.TargetID, main.ID, main.LoaderID, main.URL, loadGrace, t.kill)
	if err := chromedp.Listen(t.ctx, t.nav.handle); err != nil {
		return err
	}
	if err := b.worlds.follow(t.ctx, t.target); err != nil {
		return err
	}
	// Followed whatever PageTools says: without the feature, a page that
	// turns WebMCP on for itself (an origin-trial token) offers tools.
	t.tools = &pageTools{}
	if err := t.tools.follow(t.ctx, t.target); err != nil {
		if ctx.Err() != nil {
			return err
		}
		// A browser without WebMCP (an older one attached to) offers none.
		b.log.Debug("page tools are off in this browser", "error", err)
	}
	if err := chromedp.ListenBrowser(t.ctx, t.nav.handleBrowser); err != nil {
		return err
	}
	// Subscribe before anything can open a dialog; range in the goroutine.
	dialogs := chromedp.Events(t.ctx, page.JavascriptDialogOpening)
	b.wg.Go(func() { b.answerDialogs(t.ctx, t.target, dialogs) })
	if _, err := cdp.Call(ctx, t.target, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: int64(b.width), Height: int64(b.height), DeviceScaleFactor: 1,
	}); err != nil {
		return err
	}
	if err := b.applySettings(ctx, t.target); err != nil {
		return err
	}
	if b.opts.Observable {
		if err := watchCanvas(ctx, t.target); err != nil {
			return err
		}
	}
	if err := b.recordActivity(t); err != nil {
		return err
	}
	if err := b.setupPasskeys(ctx, t); err != nil {
		return err
	}
	if b.opts.BlockNonLoopback {
		if err := blockNonLoopback(ctx, t.target); err != nil {
			return err
		}
	}
	return b.throttle(ctx, t.target)
}

// setCurrent makes t the tab Snapshot and Do act in. The caller holds sem.
func (b *Browser) setCurrent(t *tab) {
	b.shown.set(t)
	b.cur = t
	b.target = t.target
	b.nav = t.nav
	b.tabCtx = t.ctx
}

// tabByID returns the tab with the id, or nil.
func (b *Browser) tabByID(id string) *tab {
	id = strings.TrimSpace(id)
	for _, t := range b.tabs {
		if t.id == id {
			return t
		}
	}
	return nil
}

// nextTabID returns the id of the next tab.
func (b *Browser) nextTabID() string {
	b.tabSeq++
	return "t" + strconv.Itoa(b.tabSeq)
}

// closeTab closes t's target in the background and forgets it.
func (b *Browser) dropTab(t *tab) {
	for i, x := range b.tabs {
		if x == t {
			b.tabs = append(b.tabs[:i], b.tabs[i+1:]...)
			break
		}
	}
	b.wg.Go(t.cancel)
}

// closedTabs forgets the tabs whose targets went away (closed by the page
// or from outside), switches to another tab if the current one went, and
// says what happened. It never leaves the Browser without a tab: when the
// last one went, a new blank one is opened.
func (b *Browser) closedTabs(ctx context.Context) (string, error) {
	var gone []string
	for _, t := range append([]*tab(nil), b.tabs...) {
		if t.dead.Err() != nil && errors.Is(context.Cause(t.dead), ErrDisconnected) && b.sess.alive() {
			gone = append(gone, t.id)
			b.dropTab(t)
		}
	}
	if len(gone) == 0 {
		return "", nil
	}
	msg := "tab " + strings.Join(gone, ", ") + " was closed"
	if b.tabByID(b.cur.id) == nil {
		if len(b.tabs) == 0 {
			t, err := b.newTab(ctx, b.sess, b.nextTabID())
			if err != nil {
				return "", err
			}
			b.tabs = append(b.tabs, t)
		}
		next := b.tabs[len(b.tabs)-1]
		b.setCurrent(next)
		msg += "; switched to tab " + next.id
	}
	return msg, nil
}

// describeTab returns the tab's URL and title as `https://x.org/ ("Title")`,
// from the browser's side, which answers also when the page hangs.
func (b *Browser) describeTab(ctx context.Context, t *tab) string {
	url := t.nav.state().url
	title := ""
	if info, err := cdp.Call(ctx, b.sess.browser, target.GetTargetInfo, target.GetTargetInfoParams{TargetID: t.target.TargetID}); err == nil && info.TargetInfo != nil {
		url, title = info.TargetInfo.URL, info.TargetInfo.Title
	}
	if t.dead.Err() != nil {
		return fmt.Sprintf("%s (%s) [%v]", url, strconv.Quote(title), context.Cause(t.dead))
	}
	return fmt.Sprintf("%s (%s)", url, strconv.Quote(title))
}

// adoptNewlyOpened is adoptOpened when the browser told of a page with an
// opener since the last time it listed the targets, or that time left
// one to take in: else no tab opened since, and it costs no call.
func (b *Browser) adoptNewlyOpened(ctx context.Context) error {
	if l := b.listed; l.sess == b.sess && l.events == b.sess.pageEvents.Load() && !l.again {
		return nil
	}
	return b.adoptOpened(ctx)
}

// adoptOpened takes in the tabs our tabs opened that are not ours yet.
func (b *Browser) adoptOpened(ctx context.Context) error {
	b.listed = listed{} // until it answers
	s := b.sess
	events := s.pageEvents.Load() // before the list: an event after it lists again
	res, err := cdp.Call(ctx, s.browser, target.GetTargets, target.GetTargetsParams{})
	if err != nil {
		return err
	}
	again := false
	defer func() { b.listed = listed{sess: s, events: events, again: again} }()
	ours := map[target.ID]bool{}
	for _, t := range b.tabs {
		ours[t.target.TargetID] = true
	}
	for _, info := range res.TargetInfos {
		if info.Type != "page" || !ours[info.OpenerID] || ours[info.TargetID] {
			continue
		}
		again = true
		t, err := b.adopt(ctx, b.sess, info.TargetID, b.nextTabID())
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			b.log.Debug("attaching to a new tab", "error", err, "target", string(info.TargetID))
			continue
		}
		ours[info.TargetID] = true
		b.tabs = append(b.tabs, t)
	}
	return nil
}

// tabByTarget returns our tab of the target, or nil.
func (b *Browser) tabByTarget(id target.ID) *tab {
	for _, t := range b.tabs {
		if t.target.TargetID == id {
			return t
		}
	}
	return nil
}
