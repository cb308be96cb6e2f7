// Package browser drives Chromium over the Chrome DevTools Protocol for the
// agent loop. It implements agent.Browser.
//
// Launch starts a headless Chromium with a fresh temporary profile, or
// attaches to a running browser (Options.CDPURL) and opens a tab of its own.
// The Browser then works in that one tab:
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
//   - Do performs one action (goto, click, type, select, press, scroll,
//     back) with real input events: mouse and key events dispatched through
//     the protocol, not element.click() from a script.
//
// JavaScript dialogs (alert, confirm, prompt, beforeunload) never block: they
// are accepted at once and reported in the next Snapshot's Notices.
//
// The caller owns every deadline. Snapshot and Do wait only as long as their
// context allows, except for short settling pauses that never fail (such as
// up to 1.5 s for a page's load event after it became usable). When the
// context ends they return an error that wraps the context's error, and they
// undo what they left running in Chromium (a pending navigation is stopped,
// a script that still runs is terminated) before the next call starts.
//
// Errors the model can correct are *agent.ActionError. Any other error means
// the browser is unusable: ErrCrashed, ErrDisconnected, ErrClosed, or the
// caller's context error.
//
// A Browser is safe for concurrent use; calls are served one at a time.
package browser
