// Package browser drives Chromium over the Chrome DevTools Protocol for the
// agent loop. It implements contract.Browser.
//
// Launch starts a headless Chromium with a fresh temporary profile, or
// attaches to a running browser (Options.CDPURL) and opens a tab of its own;
// with Options.Isolated its tabs live in a browser context of their own (own
// cookies and storage), disposed of on Close. The Browser works in its
// current tab; tabs the page opens (popups, target=_blank) become tabs of
// the Browser, and the current one, and the tabs action lists, switches and
// closes them:
//
//   - Snapshot describes the visible page as an indented outline, produced by
//     one script injected into the page. Every element the model can act on
//     stands on its own line, for example
//
//     textbox "Email" value="ann@x.org" [ref=e3]
//
//     A ref stays the same while the element it names stays in the document,
//     also when other parts of the page change. Refs are never reused within
//     one Browser, so a ref from a page that was left is unknown.
//
//   - Do performs one action (goto, click, type, select, check, uncheck,
//     press, hover, scroll, drag, upload, back, forward, tabs, wait_for,
//     extract) with real input events: mouse and key events dispatched
//     through the protocol, not element.click() from a script. Mouse actions
//     first check that nothing covers the element, and say what does
//     instead of clicking it.
//
//   - Eval evaluates an expression in the page and
//     Screenshot captures the viewport (contract.Screenshotter).
//
// JavaScript dialogs (alert, confirm, prompt, beforeunload) never block, in
// any tab: they are accepted at once and reported in the next Snapshot's
// Notices. Downloads are saved to Options.DownloadDir (a temporary folder by
// default) and reported there when complete.
//
// Faults are recovered where possible: a crashed tab is replaced by a new
// tab at its last URL, and a browser process that dies is relaunched once
// (fresh profile, last URL reopened); the next call does it and its notices
// say so. Recover (contract.Recoverer) also stops a navigation that never
// arrives and terminates a script that froze the page, or replaces the tab.
// Nothing an abandoned call does reaches the page after its context ended:
// no command is sent on an ended context.
//
// The caller owns every deadline. Snapshot and Do wait only as long as their
// context allows, except for short settling pauses that never fail (such as
// up to 1.5 s for a page's load event after it became usable). When the
// context ends they return an error that wraps the context's error, and they
// undo what they left running in Chromium (a pending navigation is stopped,
// a script that still runs is terminated) before the next call starts.
//
// Errors the model can correct are *contract.ActionError (also an action
// during which the tab crashed or the browser died and was brought back).
// Any other error means the browser is unusable: ErrDisconnected (the
// browser died again after its relaunch, or the attached browser went away),
// ErrClosed, or the caller's context error.
//
// A Browser is safe for concurrent use; calls are served one at a time.
//
// # How the package is laid out
//
// Every call of Snapshot, Do, Eval and the others is an op (op.go): it
// waits for the call before it, holds the call's context, and undoes what
// an abandoned call left running in Chromium. The actions are methods of
// the op, one file per tool family named after it (click.go with the aim
// and hit test every mouse action on an element takes, type.go,
// select.go, scroll.go, drag.go, ...), and actions.go holds Do and the
// table from action names to them. The JavaScript the browser runs in
// pages lives in js/, one program a file (program.go). Chromium's process
// life (finding it, its flags, profile and temporary folders, killing it
// and what it leaves) is package browser/launcher.
package browser
