package browser

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/webagent/webagent/contract"
)

// restoreJS puts a text field's value back, as a page's own script would.
var restoreJS = program("restore")

// checkTyped reads a text field back after typing: the page may have
// rejected keys, reformatted the text or cut it. It returns a note for the
// outcome ("" when the field holds the text). When the field refused every
// key and ended empty, its old value is put back and the error says so.
func (b *Browser) checkTyped(o *op, el element, text, old string, secret bool) (string, error) {
	var got string
	if err := b.callEl(o, el, valueJS, &got); err != nil {
		return "", err
	}
	if got == text || strings.TrimSpace(got) == strings.TrimSpace(text) {
		return "", nil
	}
	show := func(s string) string {
		if secret {
			return fmt.Sprintf("%d characters", len([]rune(s)))
		}
		return strconv.Quote(s)
	}
	if got == "" && text != "" {
		if old != "" {
			if err := b.callEl(o, el, restoreJS, nil, old); err != nil {
				return "", err
			}
		}
		msg := fmt.Sprintf("%s rejected the keys: typing %s left it empty", el.desc, show(text))
		if old != "" {
			msg += fmt.Sprintf("; its previous value %s was put back", show(old))
		}
		return "", contract.ActionErrorf("%s; it may take another format, or be set with its buttons, arrow keys or set_slider", msg)
	}
	return fmt.Sprintf("; but the page rejected or changed it: it now holds %s", show(got)), nil
}
