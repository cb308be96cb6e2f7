package browser

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chromedp/cdproto/runtime"

	"github.com/webagent/webagent/agent"
)

// waitChunk is how long one in-page wait of wait_for lasts before it hands
// back to Go, which checks its context and navigations and starts another.
// A wait abandoned by its caller so ends in the page within this time.
const waitChunkMS = 400

// pageTextJS returns the shown text of a document: its body's innerText,
// the text of open shadow roots (which innerText leaves out) and of
// same-origin frames.
const pageTextJS = `function pageText(doc, depth) {
  if (!doc || !doc.body || depth > 5) return '';
  let s = doc.body.innerText || '';
  const walk = (root) => {
    for (const e of root.querySelectorAll('*')) {
      if (e.shadowRoot) {
        for (const c of e.shadowRoot.children) {
          if (c.localName === 'style' || c.localName === 'script') continue;
          if (c.checkVisibility && !c.checkVisibility({checkVisibilityCSS: true})) continue;
          s += '\n' + (c.innerText || '');
        }
        walk(e.shadowRoot);
      }
      if (e.localName === 'iframe' || e.localName === 'frame') {
        let d = null;
        try { d = e.contentDocument; } catch (x) { /* cross-origin */ }
        if (d && e.checkVisibility({checkVisibilityCSS: true})) s += '\n' + pageText(d, depth + 1);
      }
    }
  };
  walk(doc);
  return s;
}`

// waitTextJS waits, for one chunk, until the page shows the text (spaces
// collapsed, case ignored); it checks on every DOM change (at most once a
// frame) and every 100 ms.
var waitTextJS = `(function (want, ms) {
  ` + pageTextJS + `
  const norm = (s) => s.replace(/\s+/g, ' ').trim().toLowerCase();
  const w = norm(want);
  const has = () => norm(pageText(document, 0)).includes(w);
  if (has()) return Promise.resolve(true);
  return new Promise((resolve) => {
    let done = false, queued = false;
    const finish = (v) => {
      if (done) return;
      done = true; obs.disconnect(); clearInterval(iv); clearTimeout(to); resolve(v);
    };
    const check = () => { queued = false; if (has()) finish(true); };
    const obs = new MutationObserver(() => { if (!queued) { queued = true; requestAnimationFrame(check); } });
    obs.observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
    const iv = setInterval(check, 100);
    const to = setTimeout(() => finish(has()), ms);
  });
})(%s, %d)`

// waitVisibleJS waits, for one chunk, until the element is rendered with a
// size; "gone" when it left the page.
const waitVisibleJS = `function (ms) {
  const el = this, win = el.ownerDocument.defaultView;
  const state = () => {
    if (!el.isConnected) return 'gone';
    const r = el.getBoundingClientRect();
    return el.checkVisibility({checkVisibilityCSS: true, opacityProperty: true}) && r.width > 0 && r.height > 0 ? 'visible' : '';
  };
  return new Promise((resolve) => {
    const t0 = Date.now();
    const tick = () => {
      const s = state();
      if (s || Date.now() - t0 >= ms) { resolve(s); return; }
      let d = false;
      const g = () => { if (!d) { d = true; tick(); } };
      win.requestAnimationFrame(g);
      win.setTimeout(g, 100);
    };
    tick();
  });
}`

// doWaitFor waits until the text shows on the page or the element of ref
// is visible. It has no time limit of its own: the caller's context ends
// it. A navigation meanwhile is followed (a text may appear on the next
// page) and reported.
func (b *Browser) doWaitFor(o *op, text, ref string) (string, error) {
	text, ref = strings.TrimSpace(text), strings.TrimSpace(ref)
	if text == "" && ref == "" {
		return "", agent.ActionErrorf("wait_for needs a text or a ref")
	}
	s0 := b.nav.state()
	navNote := func() (string, error) {
		if !b.nav.state().moved(s0) {
			return "", nil
		}
		n, err := b.navigated(o)
		if err != nil {
			return "", err
		}
		return "; " + n, nil
	}
	if ref != "" {
		el, err := b.resolve(o, ref)
		if err != nil {
			return "", err
		}
		for {
			var st string
			if err := b.callEl(o, el, waitVisibleJS, &st, waitChunkMS); err != nil {
				if b.nav.state().moved(s0) {
					return "", agent.ActionErrorf("the page navigated away while waiting for %s; take a new snapshot", el.desc)
				}
				return "", err
			}
			switch st {
			case "visible":
				// Its name may have been empty while it was hidden.
				if err := b.callEl(o, el, describeJS, &el.desc); err != nil {
					return "", err
				}
				el.desc += " [ref=" + el.ref + "]"
				nav, err := navNote()
				if err != nil {
					return "", err
				}
				return el.desc + " is visible" + nav, nil
			case "gone":
				return "", agent.ActionErrorf("%s left the page while waiting for it to show; take a new snapshot", el.desc)
			}
			if err := o.ctx.Err(); err != nil {
				return "", err
			}
		}
	}
	expr := fmt.Sprintf(waitTextJS, strconv.Quote(text), waitChunkMS)
	seen := s0
	for {
		if err := b.nav.settle(o.ctx); err != nil {
			o.stopLoading = true
			return "", err
		}
		r, err := b.eval(o, runtime.EvaluateParams{Expression: expr, ReturnByValue: new(true), AwaitPromise: new(true)})
		switch {
		case err != nil && o.ctx.Err() == nil && isProtocolError(err):
			// The document went away under the wait (a navigation): wait
			// on the next one.
			moved, werr := b.nav.wait(o.ctx, inputGrace, func(s navState) bool { return s.moved(seen) })
			if werr != nil {
				return "", werr
			}
			if !moved {
				return "", err
			}
			seen = b.nav.state()
			continue
		case err != nil:
			return "", err
		}
		var found bool
		if err := decodeValue(r, &found); err != nil {
			return "", err
		}
		if found {
			nav, err := navNote()
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("the text %s is on the page%s", strconv.Quote(text), nav), nil
		}
		if err := o.ctx.Err(); err != nil {
			return "", err
		}
	}
}
