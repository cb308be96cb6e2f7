package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/webagent/webagent/agent"
)

func TestReadableJSON(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"ref":"e3","text":"\u003csecret\u003epw\u003c/secret\u003e"}`: `{"ref":"e3","text":"<secret>pw</secret>"}`,
		`{"z":1,"a":"\u0026amp; \u003E"}`:                               `{"z":1,"a":"&amp; >"}`,
		`{"path":"C:\\u003c"}`:                                          `{"path":"C:\\u003c"}`, // an escaped backslash, then text
		`{"q":"\"\u00e9\""}`:                                            `{"q":"\"\u00e9\""}`,
		`not json \`:                                                    `not json \`,
	} {
		got := ReadableJSON(in)
		if got != want {
			t.Errorf("ReadableJSON(%s) = %s, want %s", in, got, want)
		}
		if json.Valid([]byte(in)) && !json.Valid([]byte(got)) {
			t.Errorf("ReadableJSON(%s) = %s is no longer JSON", in, got)
		}
	}
}

// Step lines and report.json show <secret>NAME</secret> as written.
func TestStepsShowSecretPlaceholders(t *testing.T) {
	t.Parallel()
	args, _ := json.Marshal(map[string]string{"ref": "e3", "text": "<secret>pw</secret>"}) // escapes < and >
	steps := Steps([]agent.Step{{Iteration: 1, Actions: []agent.ActionRecord{{Tool: "type", Args: args, Outcome: "typed"}}}})
	if line := steps[0].Actions[0]; !strings.Contains(line, `"text":"<secret>pw</secret>"`) {
		t.Errorf("step line %q", line)
	}
	r := sample()
	r.Runs[0].Steps = steps
	dir := t.TempDir()
	if err := r.WriteAll(dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"report.json", "report.html", "report.md"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(`u003c`)) {
			t.Errorf("%s has an escaped <: %s", f, b[bytes.Index(b, []byte(`u003c`))-20:][:60])
		}
	}
}

func TestCompareInterruptedAndOnlyIn(t *testing.T) {
	t.Parallel()
	old := sample()
	cur := sample()
	canceled := run("shop", "b", false, 400, 10)
	canceled.Code = string(agent.CodeCanceled)
	cur.Runs[1] = canceled
	cur.Runs = append(cur.Runs[1:], run("wiki", "d", true, 10, 1), run("wiki", "e", true, 10, 1)) // shop/a only in old
	d := Compare(old, cur, 500)
	if len(d.Regressions) != 0 || len(d.Interrupted) != 1 || d.Interrupted[0].Key != "shop/b" {
		t.Errorf("regressions %v, interrupted %v: a CANCELED run is not a regression", d.Regressions, d.Interrupted)
	}
	var b bytes.Buffer
	d.Write(&b)
	out := b.String()
	for _, want := range []string{"no regressions", "interrupted (CANCELED) in one report, not compared (1):\n  shop/b: SUCCESS → CANCELED",
		"only in the new report (2):\n  wiki/d\n  wiki/e\n", "only in the old report (1):\n  shop/a\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "[") {
		t.Errorf("a Go slice is printed:\n%s", out)
	}
}

// With hundreds of runs the time chart draws the 30 slowest, each with a
// readable row and font size, at its own pixel height, across the page's
// width; the others are in the sortable tasks table.
func TestTimeChartReadableWithManyRuns(t *testing.T) {
	t.Parallel()
	r := sample()
	r.Runs = nil
	for i := range 300 {
		r.Runs = append(r.Runs, run(fmt.Sprintf("suite%d", i%7), fmt.Sprintf("a-rather-long-task-name-%02d", i), i%3 != 0, int64(500+i*97), 10))
	}
	page, err := r.HTML(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	svg := regexp.MustCompile(`<svg[^>]*aria-label="time per task"[^>]*>`).Find(page)
	if svg == nil {
		t.Fatal("no time chart")
	}
	attr := func(name string) string {
		m := regexp.MustCompile(` ` + name + `="([^"]*)"`).FindSubmatch(svg)
		if m == nil {
			return ""
		}
		return string(m[1])
	}
	h, err := strconv.Atoi(attr("height"))
	if err != nil || h < 30*18 || h > 30*24 {
		t.Errorf("time chart height %q for its 30 slowest runs, want %d to %d px (18 to 24 a row): %s", attr("height"), 30*18, 30*24, svg)
	}
	if !bytes.Contains(page, []byte("the 30 slowest of 300 runs; the other 270 are in the tasks table")) {
		t.Error("the chart does not say where the other runs are")
	}
	if n := bytes.Count(page, []byte(`<tr class="task"`)); n != 300 || !bytes.Contains(page, []byte(`data-sort="5" data-num>time</th>`)) {
		t.Errorf("the tasks table has %d rows, or no sortable time column", n)
	}
	if w := attr("width"); strings.HasSuffix(w, "%") {
		t.Errorf("time chart width %q scales the rows down with the column", w)
	}
	chart := page[bytes.Index(page, svg):]
	chart = chart[:bytes.Index(chart, []byte("</svg>"))]
	if !bytes.Contains(chart, []byte("a-rather-long-task-name-299")) || bytes.Contains(chart, []byte("a-rather-long-task-name-00<")) {
		t.Error("the chart should hold the slowest run (299), not the fastest (00)")
	}
	for _, m := range regexp.MustCompile(`font-size="(\d+)"`).FindAllSubmatch(chart, -1) {
		if n, _ := strconv.Atoi(string(m[1])); n < 11 {
			t.Fatalf("time chart font size %d px", n)
		}
	}
	if !bytes.Contains(page, []byte("#chart-time{grid-column:1/-1")) {
		t.Error("the time chart does not span the page")
	}
}
