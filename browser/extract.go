package browser

import (
	"fmt"
	"strings"

	"github.com/webagent/webagent/contract"
)

// extractJS converts the page's main content to Markdown, a function of
// (maxChars).
var extractJS = program("extract")

// extractMaxChars bounds one part of the extract action's output.
const extractMaxChars = 8000

// doExtract returns the next part of the page's main content as Markdown,
// with a line before it naming the page and, when the content is longer
// than one part, which part this is and how to read on.
func (o *op) doExtract(contract.Action) (string, error) {
	b := o.b
	if err := b.nav.settle(o.ctx); err != nil {
		o.stopLoading = true
		return "", err
	}
	var res struct {
		URL, Title, Text, ContentType string
		Part, Start, End, Total       int
	}
	if err := o.evalValue(jsCall(extractJS, extractMaxChars), &res); err != nil {
		return "", err
	}
	if res.ContentType == pdfMIME {
		return o.extractDocument(res.URL)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "Main content of %s (%q) as Markdown", res.URL, res.Title)
	if res.Total == 0 {
		sb.WriteString(": the page has no text content.")
		return sb.String(), nil
	}
	if res.Start > 0 || res.End < res.Total {
		fmt.Fprintf(&sb, ", part %d: characters %d-%d of %d", res.Part, res.Start+1, res.End, res.Total)
	}
	sb.WriteString(":\n\n")
	sb.WriteString(res.Text)
	if res.End < res.Total {
		fmt.Fprintf(&sb, "\n\n[cut here: %d more characters follow. Call extract again to read the next part.]", res.Total-res.End)
	} else if res.Start > 0 {
		sb.WriteString("\n\n[end of the content; another extract starts again from the beginning.]")
	}
	return sb.String(), nil
}
