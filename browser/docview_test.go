package browser

import (
	"context"
	"strings"
	"testing"
)

// Pages are kept whole in order while they fit the budget, the rest folded
// into regions; a page with no text and a document that cannot be read say
// so.
func TestDocOutline(t *testing.T) {
	long := strings.TrimSpace(strings.Repeat("the tide tables list the hours of water\n", 30))
	doc := pdfText{pages: []string{"Cover\nHarbour report", long, ""}, total: 3}

	text, regions := docOutline("tides.pdf", doc, 100)
	want := `document "tides.pdf": PDF of 3 pages
page 1 of 3
  Cover
  Harbour report
page 2 of 3
  … 30 lines (240 words) of page 2 not shown, starting "the tide tables list the hours of water…" (read_region r2 reads them) [region=r2]
page 3 of 3
  (no text on this page: it may be a scanned image)`
	if text != want {
		t.Errorf("outline:\n%s\nwant:\n%s", text, want)
	}
	if len(regions) != 1 || regions["r2"] != long {
		t.Errorf("regions %q, want page 2 as r2", regions)
	}

	if text, regions := docOutline("tides.pdf", doc, 10000); strings.Contains(text, "[region=") || len(regions) != 0 {
		t.Errorf("a document within the budget was folded:\n%s", text)
	}

	text, _ = docOutline("x.pdf", readPDF(context.Background(), []byte("<html>not a pdf</html>")), 100)
	if !strings.HasPrefix(text, `document "x.pdf": a PDF that cannot be read: it is damaged or not a PDF (`) {
		t.Errorf("not a PDF: %s", text)
	}
	big := make([]byte, maxPDFBytes+1)
	if p := readPDF(context.Background(), big).problem; p != "it is larger (52.4 MB) than the 52.4 MB webagent reads" {
		t.Errorf("a PDF over the limit: %q", p)
	}
}
