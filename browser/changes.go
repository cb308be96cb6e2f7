package browser

import "fmt"

// Reporting what an action changed: before the input, an observer is put on
// the page's document; after it, the outcome says whether the page changed
// (its DOM, or a form control's value or state) or not.

// watchChangesJS installs the observer, or reads and removes it.
const watchChangesJS = `(function (read) {
  const k = Symbol.for('webagent.changes');
  const old = window[k];
  if (old) { old.obs.disconnect(); for (const [t, f] of old.ls) document.removeEventListener(t, f, true); delete window[k]; }
  if (read) {
    if (!old) return -1;
    return old.n + old.obs.takeRecords().length;
  }
  const w = {n: 0, ls: []};
  w.obs = new MutationObserver((recs) => { w.n += recs.length; });
  w.obs.observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
  for (const t of ['input', 'change', 'scroll']) {
    const f = () => { w.n++; };
    document.addEventListener(t, f, true);
    w.ls.push([t, f]);
  }
  window[k] = w;
  return 0;
})(%t)`

// watchChanges starts watching the page for changes and returns a function
// that stops it and describes the change: "; the page changed", "; nothing
// on the page changed", or "" when it cannot tell (the document was
// replaced, the page did not answer).
func (b *Browser) watchChanges(o *op) func() string {
	var n int
	if err := b.evalValue(o, fmt.Sprintf(watchChangesJS, false), &n); err != nil {
		return func() string { return "" }
	}
	return func() string {
		if err := b.evalValue(o, fmt.Sprintf(watchChangesJS, true), &n); err != nil || n < 0 {
			return ""
		}
		if n == 0 {
			return "; nothing on the page changed (yet)"
		}
		return "; the page changed"
	}
}
