package browser

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ledongthuc/pdf"
)

// The text of a PDF, page by page, read in Go with github.com/ledongthuc/pdf
// (a maintained descendant of rsc.io/pdf: pure Go, no dependencies). It
// decodes the ToUnicode maps of the CID fonts Chromium's Skia writes, and
// gives each page's text in the order it is drawn, which for a printed page
// is the reading order.

// The limits of reading a PDF: its size, its pages, the text kept of one
// page.
const (
	maxPDFBytes    = 50 << 20
	maxPDFPages    = 500
	maxPDFPageText = 100_000
)

// pdfText is what a PDF holds: the text of each page read, its number of
// pages, and, when it could not be read whole, why.
type pdfText struct {
	pages   []string // the text of pages 1 to len(pages)
	total   int      // the document's page count
	problem string   // why the document, or its pages past len(pages), were not read
}

// isPDF reports whether data starts as a PDF file does.
func isPDF(data []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(data[:min(len(data), 1024)], "\x00\t\r\n "), []byte("%PDF-"))
}

// readPDF returns the text of the PDF data, page by page. A document that
// cannot be read (damaged, encrypted, too large) gives a pdfText whose
// problem says why; ctx ending stops it between two pages.
func readPDF(ctx context.Context, data []byte) (t pdfText) {
	if len(data) > maxPDFBytes {
		t.problem = fmt.Sprintf("it is larger (%s) than the %s webagent reads", humanSize(int64(len(data))), humanSize(maxPDFBytes))
		return t
	}
	// The parser panics on some damaged files: a damaged file is a
	// problem of the document, not of the browser.
	defer func() {
		if r := recover(); r != nil {
			t.problem = fmt.Sprintf("it is damaged (%v)", r)
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	switch {
	case errors.Is(err, pdf.ErrInvalidPassword):
		t.problem = "it is encrypted with a password"
		return t
	case err != nil && strings.Contains(err.Error(), "encryption"):
		t.problem = fmt.Sprintf("it is encrypted in a way webagent cannot read (%v)", err)
		return t
	case err != nil:
		t.problem = fmt.Sprintf("it is damaged or not a PDF (%v)", err)
		return t
	}
	t.total = r.NumPage()
	for i := 1; i <= t.total; i++ {
		if i > maxPDFPages {
			t.problem = fmt.Sprintf("only its first %d pages are read", maxPDFPages)
			return t
		}
		if ctx.Err() != nil {
			t.problem = fmt.Sprintf("reading it was cut short after %d pages (%v)", len(t.pages), ctx.Err())
			return t
		}
		t.pages = append(t.pages, pageText(r.Page(i)))
	}
	return t
}

// pageText is the text of one page, its lines trimmed and blank ones
// dropped; a page with no text (a scan) gives "".
func pageText(p pdf.Page) string {
	raw, err := p.GetPlainText(nil) // nil: the page's own fonts
	if err != nil {
		return ""
	}
	var lines []string
	for l := range strings.Lines(raw) {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			lines = append(lines, l)
		}
	}
	s := strings.Join(lines, "\n")
	if len(s) > maxPDFPageText {
		s = s[:maxPDFPageText] + " …"
	}
	return s
}
