package browser

import (
	"context"
	"fmt"
	"net/url"
	"path"

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
}

// showDocument replaces the walk of a PDF viewer with the PDF's text. A PDF
// that cannot be loaded or read gives a line saying why; only the op's
// context ending is an error.
func (o *op) showDocument(res *walkResult) error {
	b := o.b
	st := b.nav.state()
	d := b.snap.doc
	if d == nil || d.loader != st.loader || d.url != res.URL {
		d = &tabDoc{loader: st.loader, url: res.URL, name: docName(res.URL)}
		data, err := o.loadResource(res.URL)
		switch {
		case o.ctx.Err() != nil:
			return o.ctx.Err()
		case err != nil:
			d.text.problem = err.Error()
		default:
			d.text = readPDF(o.ctx, data)
		}
		if o.ctx.Err() != nil {
			return o.ctx.Err() // cut short: read it again next time
		}
		b.snap.doc = d
	}
	res.Text, b.snap.docRegions = docOutline(d.name, d.text, b.snap.tokens)
	if res.Title == "" {
		res.Title = d.name
	}
	return nil
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
