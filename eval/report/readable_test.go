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

// With 52 runs the time chart keeps a readable row and font size, at its
// own pixel height, across the page's width.
func TestTimeChartReadableWithManyRuns(t *testing.T) {
	r := sample()
	r.Runs = nil
	for i := range 52 {
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
	if err != nil || h < 52*18 {
		t.Errorf("time chart height %q for 52 runs, want at least %d px (18 a row): %s", attr("height"), 52*18, svg)
	}
	if w := attr("width"); strings.HasSuffix(w, "%") {
		t.Errorf("time chart width %q scales the rows down with the column", w)
	}
	chart := page[bytes.Index(page, svg):]
	chart = chart[:bytes.Index(chart, []byte("</svg>"))]
	for _, m := range regexp.MustCompile(`font-size="(\d+)"`).FindAllSubmatch(chart, -1) {
		if n, _ := strconv.Atoi(string(m[1])); n < 11 {
			t.Fatalf("time chart font size %d px", n)
		}
	}
	if !bytes.Contains(page, []byte("#chart-time{grid-column:1/-1")) {
		t.Error("the time chart does not span the page")
	}
}
