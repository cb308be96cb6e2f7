package browser

import (
	"context"
	"fmt"
	"iter"
	"strconv"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
)

// answerDialogs accepts every JavaScript dialog of the tab as it opens, so
// that none blocks the page or a call, and records a notice for it. It runs
// for the life of the tab (every tab has one); events is subscribed before
// the tab can open a dialog.
func (b *Browser) answerDialogs(ctx context.Context, target guarded, events iter.Seq2[page.EventJavascriptDialogOpening, error]) {
	for ev, err := range events {
		if err != nil {
			return
		}
		// Record first: the call that opened the dialog resumes only once
		// it is answered, and it reports the notices added meanwhile.
		b.notices.add(dialogNotice(ev))
		_, err := cdp.Call(ctx, target, page.HandleJavaScriptDialog,
			page.HandleJavaScriptDialogParams{Accept: true, PromptText: ev.DefaultPrompt})
		if err != nil && ctx.Err() == nil {
			b.log.Warn("answering a JavaScript dialog", "error", err, "type", string(ev.Type))
		}
	}
}

func dialogNotice(ev page.EventJavascriptDialogOpening) string {
	msg := strconv.Quote(truncate(ev.Message, 200))
	switch ev.Type {
	case page.DialogTypeConfirm:
		return fmt.Sprintf("confirm dialog %s was accepted (OK)", msg)
	case page.DialogTypePrompt:
		return fmt.Sprintf("prompt dialog %s was answered with %s", msg, strconv.Quote(ev.DefaultPrompt))
	case page.DialogTypeBeforeunload:
		return "beforeunload dialog was accepted: the page was left"
	default:
		return fmt.Sprintf("%s dialog %s was accepted", ev.Type, msg)
	}
}

// truncate cuts s to at most n runes, marking the cut with an ellipsis.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
