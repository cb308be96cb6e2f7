package agent_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/modelserver"
)

// plainPDF writes a PDF with one page per entry of pages, each line of a
// page drawn in Helvetica, the way simple PDF writers do.
func plainPDF(pages [][]string) []byte {
	var buf bytes.Buffer
	var offsets []int
	obj := func(body string) {
		offsets = append(offsets, buf.Len())
		fmt.Fprintf(&buf, "%d 0 obj\n%s\nendobj\n", len(offsets), body)
	}
	buf.WriteString("%PDF-1.4\n")
	n := len(pages)
	kids := make([]string, n)
	for i := range pages {
		kids[i] = fmt.Sprintf("%d 0 R", 4+2*i)
	}
	obj("<< /Type /Catalog /Pages 2 0 R >>")
	obj(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n))
	obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	for i, lines := range pages {
		var s strings.Builder
		s.WriteString("BT /F1 9 Tf 11 TL 40 800 Td\n")
		for _, l := range lines {
			fmt.Fprintf(&s, "(%s) Tj T*\n", l)
		}
		s.WriteString("ET")
		obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", 5+2*i))
		obj(fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", s.Len(), s.String()))
	}
	xref := buf.Len()
	fmt.Fprintf(&buf, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, o := range offsets {
		fmt.Fprintf(&buf, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&buf, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return buf.Bytes()
}

// A task whose answer is on the third page of a linked PDF too long for the
// snapshot: the model opens it, reads page 3's region and answers.
func TestTaskReadsAnswerFromPDF(t *testing.T) {
	t.Parallel()
	br := tab(t)
	var pages [][]string
	for p := 1; p <= 3; p++ {
		var lines []string
		for i := range 70 {
			lines = append(lines, fmt.Sprintf("Page %d line %d: the tide tables list the hours of high and low water.", p, i))
		}
		pages = append(pages, lines)
	}
	pages[2] = append(pages[2], "The harbour master's code word is PELICAN-4217.")
	pdf := plainPDF(pages)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Harbour</title><a href="/tides.pdf">Tide tables</a>`)
	})
	mux.HandleFunc("/tides.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		_, _ = w.Write(pdf)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	word := regexp.MustCompile(`code word is (\S+)\.`)
	region := regexp.MustCompile(`(?m)^page 3 of 3\n\s*….*\[region=(r\d+)\]$`)
	model, _ := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		call := func(name string, args map[string]any) modelserver.Turn {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall(name, args)}}
		}
		if m := word.FindStringSubmatch(req.LastTool()); m != nil {
			return call("done", map[string]any{"answer": m[1]})
		}
		obs := req.LastUser()
		if m := region.FindStringSubmatch(obs); m != nil && strings.Contains(obs, `PDF of 3 pages`) {
			return call("read_region", map[string]any{"ref": m[1]})
		}
		if ref, ok := modelserver.FindRef(obs, "link", "Tide tables"); ok {
			return call("click", map[string]any{"ref": ref})
		}
		return call("fail", map[string]any{"reason": "no link, no PDF"})
	}))
	a := mustAgent(t, br, model, agent.WithIterationTimeout(20*time.Second), agent.WithMaxIterations(6))
	res := a.Run(context.Background(), agent.Task{URL: srv.URL + "/", Instruction: "What is the harbour master's code word?"})
	if res.Code != agent.CodeSuccess || res.Answer != "PELICAN-4217" {
		t.Fatalf("got %s %q: %s", res.Code, res.Answer, res.Message)
	}
	if res.Iterations != 3 {
		t.Errorf("%d iterations, want 3 (open the PDF, read page 3, answer)", res.Iterations)
	}
}
