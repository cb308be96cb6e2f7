package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

// bigPage is an article-like page of about n elements: a navigation bar
// of links, articles (a heading, paragraphs with inline markup and a link, a
// short list, a byline), then a data table with a link in every fourth
// row. About 6% of the elements are actionable.
func bigPage(n int) string {
	var b strings.Builder
	b.WriteString("<!doctype html><title>Big</title><nav>")
	for i := range 100 {
		fmt.Fprintf(&b, `<a href="/section/%d">Section %d</a> `, i, i)
	}
	b.WriteString("</nav><main><h1>Big page</h1>")
	articles := (n - 100) * 6 / 10 / 15
	for i := range articles {
		fmt.Fprintf(&b, `<article><h2>Story number %d</h2><p>The first paragraph of story %d tells what happened, with <b>bold</b>, <i>italic</i> and <span>plain</span> words.</p>`+
			`<p>A second paragraph adds detail and <a href="/story/%d">a link to the full story</a>.</p><ul><li>one point</li><li>another point</li><li>a last point</li></ul>`+
			`<div class=meta><span>by Author %d</span> <time>2026-01-%02d</time></div></article>`, i, i, i, i, i%28+1)
	}
	rows := (n - 100) * 4 / 10 / 5
	b.WriteString("<table><caption>Numbers</caption><tr><th>n</th><th>square</th><th>cube</th><th>note</th></tr>")
	for i := range rows {
		note := "plain"
		if i%4 == 0 {
			note = fmt.Sprintf(`<a href="#r%d">open</a>`, i)
		}
		fmt.Fprintf(&b, `<tr><td>%d</td><td>%d</td><td>%d</td><td>%s</td></tr>`, i, i*i, i*i*i, note)
	}
	b.WriteString("</table></main>")
	return b.String()
}

// BenchmarkSnapshot20kNodes measures a snapshot of a page of 20,000
// elements (run with go test -bench Snapshot20k -run '^$' ./browser/).
func BenchmarkSnapshot20kNodes(b *testing.B) {
	page := bigPage(20000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	}))
	defer srv.Close()
	ctx := b.Context()
	if _, err := shared.Do(ctx, contract.Action{Name: contract.ActGoto, URL: srv.URL + "/"}); err != nil {
		b.Fatal(err)
	}
	n, err := shared.Eval(ctx, "document.getElementsByTagName('*').length")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(n.(float64), "elements")
	var chars int
	for b.Loop() {
		s, err := shared.Snapshot(ctx)
		if err != nil {
			b.Fatal(err)
		}
		chars = len(s.Text)
	}
	b.ReportMetric(float64(chars), "chars")
}
