package browser

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/io"
	"github.com/chromedp/cdproto/network"
)

// A tab whose main document is a PDF shows Chromium's viewer, a frame the
// walker cannot read. Its snapshot reads the PDF itself instead: the bytes
// are loaded again through the tab's frame (Network.loadNetworkResource:
// the tab's cookies, the HTTP cache), their text read in Go (pdftext.go)
// and shown page by page (docview.go).

// pdfMIME is the content type of a PDF document.
const pdfMIME = "application/pdf"

// tabDoc is the PDF the tab showed at the latest snapshot, kept so that the
// next snapshots of the same document do not read it again.
type tabDoc struct {
	loader cdp.LoaderID
	url    string
	name   string
	text   pdfText

	extracted int // where the next extract starts, in its text
}

// showDocument replaces the walk of a PDF viewer with the PDF's text. A PDF
// that cannot be loaded or read gives a line saying why; only the op's
// context ending is an error.
func (o *op) showDocument(res *walkResult) error {
	b := o.b
	d, err := o.tabDocument(res.URL)
	if err != nil {
		return err
	}
	res.Text, b.snap.docRegions = docOutline(d.name, d.text, b.snap.tokens)
	if res.Title == "" {
		res.Title = d.name
	}
	return nil
}

// tabDocument returns the PDF at u that the tab holds, read once per
// document. A PDF that cannot be loaded or read is a tabDoc saying why;
// only the op's context ending is an error.
func (o *op) tabDocument(u string) (*tabDoc, error) {
	b := o.b
	st := b.nav.state()
	if d := b.snap.doc; d != nil && d.loader == st.loader && d.url == u {
		return d, nil
	}
	d := &tabDoc{loader: st.loader, url: u, name: docName(u)}
	data, err := o.loadResource(u)
	switch {
	case o.ctx.Err() != nil:
		return nil, o.ctx.Err()
	case err != nil:
		d.text.problem = err.Error()
	default:
		d.text = readPDF(o.ctx, data)
	}
	if o.ctx.Err() != nil {
		return nil, o.ctx.Err() // cut short: read it again next time
	}
	b.snap.doc = d
	return d, nil
}

// extractDocument is extract for a tab holding a PDF: the next part of its
// text, page by page, extractMaxChars at a time.
func (o *op) extractDocument(u string) (string, error) {
	d, err := o.tabDocument(u)
	if err != nil {
		return "", err
	}
	all, _ := docOutline(d.name, d.text, math.MaxInt)
	start := d.extracted
	if start >= len(all) {
		start = 0
	}
	end := min(len(all), start+extractMaxChars)
	if end < len(all) {
		if nl := strings.LastIndexByte(all[:end], '\n'); nl > start+extractMaxChars/2 {
			end = nl
		}
	}
	d.extracted = end
	if start == 0 && end == len(all) {
		return fmt.Sprintf("Text of the PDF %s:\n\n%s", strconv.Quote(d.name), all), nil
	}
	out := fmt.Sprintf("Text of the PDF %s, characters %d-%d of %d:\n\n%s", strconv.Quote(d.name), start+1, end, len(all), all[start:end])
	if end < len(all) {
		out += fmt.Sprintf("\n\n[cut here: %d more characters follow. Call extract again to read the next part.]", len(all)-end)
	} else {
		out += "\n\n[end of the document; another extract starts again from the beginning.]"
	}
	return out, nil
}

// docName is the file name of a document's URL.
func docName(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		if n := path.Base(u.Path); n != "/" && n != "." {
			return n
		}
	}
	return "document.pdf"
}

// loadResource loads u in the tab's main frame and returns its bytes, at
// most maxPDFBytes of them.
func (o *op) loadResource(u string) ([]byte, error) {
	b := o.b
	r, err := cdp.Call(o.ctx, b.target, network.LoadNetworkResource, network.LoadNetworkResourceParams{
		FrameID: b.nav.frame, URL: u,
		Options: &network.LoadNetworkResourceOptions{IncludeCredentials: true},
	})
	if err != nil {
		return nil, fmt.Errorf("it could not be loaded again to read it (%w)", err)
	}
	res := r.Resource
	if res == nil || !res.Success || res.Stream == "" {
		msg := "its server refused it"
		if res != nil && res.NetErrorName != "" {
			msg = res.NetErrorName
		} else if res != nil && res.HTTPStatusCode != 0 {
			msg = fmt.Sprintf("HTTP status %v", res.HTTPStatusCode)
		}
		return nil, fmt.Errorf("it could not be loaded again to read it (%s)", msg)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(o.tab.dead, cleanupTimeout)
		defer cancel()
		_, _ = cdp.Call(ctx, b.target, io.Close, io.CloseParams{Handle: res.Stream})
	}()
	var data []byte
	for {
		chunk, err := cdp.Call(o.ctx, b.target, io.Read, io.ReadParams{Handle: res.Stream, Size: 1 << 20})
		if err != nil {
			return nil, fmt.Errorf("reading it failed (%w)", err)
		}
		data = append(data, chunk.Data...) // decoded from base64 by cdproto
		if len(data) > maxPDFBytes {
			return nil, fmt.Errorf("it is larger than the %s webagent reads", humanSize(maxPDFBytes))
		}
		if chunk.EOF {
			return data, nil
		}
	}
}
