package browser

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/webagent/webagent/contract"
)

// Downloaded PDFs: the download notice gives each a handle, f1, f2, …, and
// read_region reads its text, whole (f1) or one page (f1p3).

// maxDownloadPDFs bounds the downloaded PDFs given a handle.
const maxDownloadPDFs = 100

// fileIsPDF reports whether the file at p starts as a PDF does. It reads
// only the first bytes: it runs on the browser's event loop.
func fileIsPDF(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 1024)
	n, _ := io.ReadFull(f, head)
	return isPDF(head[:n])
}

// readFileRegion reads a downloaded PDF by its handle: fN for the whole
// text, page by page, fNpM for page M.
func (o *op) readFileRegion(id string) (string, error) {
	num, page, _ := strings.Cut(id[1:], "p")
	n, _ := strconv.Atoi(num)
	d := &o.b.downloads
	d.mu.Lock()
	var p string
	if n >= 1 && n <= len(d.pdfs) {
		p = d.pdfs[n-1]
	}
	d.mu.Unlock()
	if p == "" {
		return "", contract.ActionErrorf("no downloaded PDF has the handle f%s: the download notices give the handles", num)
	}
	name := filepath.Base(p)
	t, err := readPDFFile(o, p)
	if err != nil {
		return "", err
	}
	if page == "" {
		text, _ := docOutline(name, t, int(^uint(0)>>1))
		return cut(text, fmt.Sprintf("read one page with read_region f%sp1, f%sp2, …", num, num)), nil
	}
	m, _ := strconv.Atoi(page)
	switch {
	case t.total == 0:
		text, _ := docOutline(name, t, 0)
		return text, nil
	case m < 1 || m > t.total:
		return "", contract.ActionErrorf("%s has pages 1 to %d, not %d", strconv.Quote(name), t.total, m)
	case m > len(t.pages):
		return fmt.Sprintf("page %d of %d of %s was not read: %s", m, t.total, strconv.Quote(name), t.problem), nil
	}
	return fmt.Sprintf("page %d of %d of %s:\n%s", m, t.total, strconv.Quote(name), cut(t.pages[m-1], "the rest of the page is not shown")), nil
}

// readPDFFile reads the text of the PDF file at p, within the op's
// context. A file too large or gone gives a pdfText saying why.
func readPDFFile(o *op, p string) (pdfText, error) {
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return pdfText{problem: "the file is no longer in the download folder"}, nil
	case err != nil:
		return pdfText{}, fmt.Errorf("browser: reading a downloaded PDF: %w", err)
	case fi.Size() > maxPDFBytes:
		return pdfText{problem: fmt.Sprintf("it is larger (%s) than the %s webagent reads", humanSize(fi.Size()), humanSize(maxPDFBytes))}, nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return pdfText{}, fmt.Errorf("browser: reading a downloaded PDF: %w", err)
	}
	t := readPDF(o.ctx, data)
	if err := o.ctx.Err(); err != nil {
		return pdfText{}, err
	}
	return t, nil
}
