package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

// pdfAnswer is the sentence only the third page of the test PDF holds.
const pdfAnswer = "The harbour master's code word is PELICAN-4217."

// filler is a paragraph that makes a page longer than its folded line.
const filler = `<p>Harbour records are kept by the office on the quay, in ledgers that
list every ship, its cargo, its crew and the hour it was seen from the lighthouse.</p>`

// reportHTML prints as three pages, one per section.
const reportHTML = `<!doctype html><title>Report</title>
<style>section { break-after: page } p { font: 16px serif }</style>
<section><h1>Chapter one</h1><p>Ships arrive in the morning and leave at dusk.</p>` + filler + `</section>
<section><h1>Chapter two</h1><p>The tides follow the moon, twice a day.</p>` + filler + `</section>
<section><h1>Chapter three</h1>` + filler + `<p>` + pdfAnswer + `</p></section>`

// printPDF makes a PDF of html with Chromium's print to PDF in b.
func printPDF(t *testing.T, b *Browser, html string) []byte {
	t.Helper()
	open(t, b, servePage(t, html))
	pdf, err := cdp.Call(tctx(t), b.target, page.PrintToPDF, page.PrintToPDFParams{PreferCSSPageSize: new(true)})
	if err != nil {
		t.Fatalf("print to PDF: %v", err)
	}
	return pdf.Data
}

// pdfSite serves a page linking to the PDF shown inline, the PDF as an
// attachment, and a damaged PDF.
func pdfSite(t *testing.T, pdf []byte) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Harbour</title><a href="/report.pdf">Report</a> <a href="/get/report.pdf">Download</a> <a href="/broken.pdf">Broken</a>`)
	})
	mux.HandleFunc("/report.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", pdfMIME)
		_, _ = w.Write(pdf)
	})
	mux.HandleFunc("/get/report.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", pdfMIME)
		w.Header().Set("Content-Disposition", `attachment; filename="harbour.pdf"`)
		_, _ = w.Write(pdf)
	})
	mux.HandleFunc("/broken.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", pdfMIME)
		_, _ = w.Write(pdf[:len(pdf)/3])
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// A PDF opened in the tab (a link to it, or goto) reads as its pages; one
// downloaded reads with read_region by the handle its notice gives; a
// damaged one says so in a line.
func TestPDF(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	b := newTab(t)
	base := pdfSite(t, printPDF(t, b, reportHTML))

	t.Run("inline", func(t *testing.T) {
		s := open(t, b, base+"/")
		do(t, b, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `link "Report"`)})
		s = snapshot(t, b)
		wantLine(t, s, `document "report.pdf": PDF of 3 pages`)
		_, third, ok := strings.Cut(s.Text, "\npage 3 of 3\n")
		if !ok || !strings.Contains(third, pdfAnswer) || strings.Contains(s.Text, "[region=") {
			t.Errorf("the answer is not shown whole under page 3:\n%s", s.Text)
		}
		if s.Title != "report.pdf" {
			t.Errorf("title %q, want the file's name", s.Title)
		}
		// extract reads the PDF too.
		out := do(t, b, contract.Action{Name: contract.ActExtract})
		if _, third, ok := strings.Cut(out, "\npage 3 of 3\n"); !strings.HasPrefix(out, `Text of the PDF "report.pdf":`) || !ok || !strings.Contains(third, pdfAnswer) {
			t.Errorf("extract gave:\n%s", out)
		}
	})

	t.Run("download", func(t *testing.T) {
		s := open(t, b, base+"/")
		do(t, b, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `link "Download"`)})
		var notes []string
		waitFor(t, "the download notice", 5*time.Second, func() bool {
			notes = append(notes, snapshot(t, b).Notices...)
			return len(notes) > 0
		})
		want := "downloaded harbour.pdf (" // then its size
		if !strings.HasPrefix(notes[0], want) || !strings.HasSuffix(notes[0], "; it is a PDF: read_region f1 reads its text (f1p2 its page 2)") {
			t.Fatalf("notices %q, want the PDF's handle", notes)
		}
		whole := do(t, b, contract.Action{Name: contract.ActReadRegion, Ref: "f1"})
		if _, third, ok := strings.Cut(whole, "\npage 3 of 3\n"); !ok || !strings.Contains(third, pdfAnswer) {
			t.Errorf("read_region f1 gave:\n%s", whole)
		}
		p3 := do(t, b, contract.Action{Name: contract.ActReadRegion, Ref: "f1p3"})
		if !strings.HasPrefix(p3, `page 3 of 3 of "harbour.pdf":`) || !strings.Contains(p3, pdfAnswer) {
			t.Errorf("read_region f1p3 gave:\n%s", p3)
		}
		if _, err := b.Do(tctx(t), contract.Action{Name: contract.ActReadRegion, Ref: "f1p4"}); !isActionError(err) {
			t.Errorf("read_region of a fourth page: %v, want an action error", err)
		}
	})

	t.Run("damaged", func(t *testing.T) {
		s := open(t, b, base+"/broken.pdf")
		if !strings.HasPrefix(s.Text, `document "broken.pdf": a PDF that cannot be read: it is damaged`) {
			t.Errorf("a damaged PDF shows:\n%s", s.Text)
		}
	})
}

// With a small budget each page is folded into a region that read_region
// reads.
func TestPDFFoldedPages(t *testing.T) {
	t.Parallel()
	b := newTabWith(t, Options{SnapshotTokens: 40})
	base := pdfSite(t, printPDF(t, b, reportHTML))
	s := open(t, b, base+"/report.pdf")
	wantLine(t, s, `document "report.pdf": PDF of 3 pages`)
	if strings.Contains(s.Text, "PELICAN") {
		t.Errorf("the snapshot shows the folded text:\n%s", s.Text)
	}
	_, third, _ := strings.Cut(s.Text, "\npage 3 of 3\n")
	if !strings.HasSuffix(third, "[region=r3]") {
		t.Fatalf("page 3 is not a region:\n%s", s.Text)
	}
	got := do(t, b, contract.Action{Name: contract.ActReadRegion, Ref: "r3"})
	if !strings.HasPrefix(got, "region r3:\nChapter three\nHarbour records") || !strings.HasSuffix(got, "\n"+pdfAnswer) {
		t.Errorf("read_region r3 = %q", got)
	}
}
