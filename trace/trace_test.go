package trace_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"image"
	"image/color"
	"image/png"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	secretpkg "github.com/webagent/webagent/secret"
	"github.com/webagent/webagent/trace"
)

const secret = "s3cr3t/Value+x"

// page is a fake browser: a screenshot of a busy page, and some activity.
type page struct{ png []byte }

func (p page) Screenshot(context.Context) ([]byte, error) { return p.png, nil }

func (page) TakeActivity() ([]contract.ConsoleEntry, []contract.NetEntry) {
	return []contract.ConsoleEntry{{Level: "log", Text: "token " + base64.StdEncoding.EncodeToString([]byte(secret))}},
		[]contract.NetEntry{{Method: "GET", URL: "http://x.test/?q=" + url.QueryEscape(secret), Status: 200,
			RequestHeaders: map[string]string{"Authorization": "Bearer " + secret}}}
}

// jpegPage is a browser that encodes its screenshots as JPEG itself.
type jpegPage struct {
	page
	jpg []byte
}

func (p jpegPage) ScreenshotJPEG(context.Context, int, int) ([]byte, error) { return p.jpg, nil }

// screenshot is a 1280×900 PNG with text-like detail, as a page has.
func screenshot(t testing.TB) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 1280, 900))
	for y := 0; y < 900; y++ {
		for x := 0; x < 1280; x++ {
			c := color.RGBA{250, 250, 250, 255}
			if (y/18)%3 != 2 && (x*7+y*3)%11 < 4 && x%300 < 260 {
				c = color.RGBA{uint8(x % 60), uint8(y % 80), 40, 255}
			}
			i := img.PixOffset(x, y)
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// observation is a snapshot of about 3000 tokens.
var observation = "Step 1 of 50.\nURL: http://x.test/\nSnapshot:\n" + strings.Repeat("  link \"A product with a long name\" [ref=e12]\n  text about the product and its price $12.00\n", 130)

func writeTrace(t testing.TB, dir string, steps int, opts trace.Options) {
	w, err := trace.Create(dir, trace.Header{Task: "log in with " + secret, URL: "http://x.test/"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	tools := []contract.ToolDef{{Name: "click", Description: "click", Parameters: []byte(`{"type":"object"}`)}}
	for i := 1; i <= steps; i++ {
		traceOne(w, i, tools)
	}
	if err := w.End(context.Background(), &agent.Result{Code: agent.CodeSuccess, Answer: "done", Iterations: steps}); err != nil {
		t.Fatal(err)
	}
}

func traceOne(w *trace.Writer, i int, tools []contract.ToolDef) {
	w.TraceSnapshot(context.Background(), i)
	msgs := []contract.Message{{Role: contract.RoleSystem, Content: "system prompt " + strings.Repeat("rules ", 400)}, {Role: contract.RoleUser, Content: observation + " " + secret}}
	w.TraceModel(agent.ModelCall{Iteration: i, Observation: observation, Request: contract.Request{Messages: msgs, Tools: tools},
		Reply:   contract.Reply{Content: "typing " + secret, ToolCalls: []contract.ToolCall{{ID: "c1", Name: "click", Arguments: `{"ref":"e12"}`}}},
		Started: time.Now(), Duration: time.Second})
	w.TraceStep(context.Background(), agent.Step{Iteration: i, URL: "http://x.test/", Actions: []agent.ActionRecord{
		{Tool: "click", Args: []byte(`{"ref":"e12"}`), Outcome: "clicked link \"A product\" [ref=e12]", MS: 40}}})
}

func TestWriteRead(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "t")
	m := secretpkg.NewMasker(map[string]string{"pw": secret})
	// The PNG path once (a browser without ScreenshotJPEG), then a JPEG per step.
	png := screenshot(t)
	jpg, err := trace.ToJPEG(png, trace.DefaultMaxShotWidth, trace.DefaultJPEGQuality)
	if err != nil || len(jpg) > 300<<10 {
		t.Fatalf("%v; %d bytes", err, len(jpg))
	}
	writeTrace(t, dir, 10, trace.Options{Masker: m, Shots: jpegPage{page{png}, jpg}, Activity: page{}, HAR: true})
	tr, err := trace.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Steps) != 10 || len(tr.Models) != 10 || tr.End == nil || tr.Header.Version != trace.Version {
		t.Fatalf("read %d steps, %d model calls, end %v", len(tr.Steps), len(tr.Models), tr.End)
	}
	if tr.Steps[3].Screenshot != "shots/0004.jpg" || len(tr.Steps[3].Network) != 1 || len(tr.Models[0].Request.Tools) != 1 || len(tr.Models[1].Request.Tools) != 0 {
		t.Fatalf("step 4: %+v", tr.Steps[3])
	}
	var size int64
	forms := []string{secret, url.QueryEscape(secret), base64.StdEncoding.EncodeToString([]byte(secret))}
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		size += info.Size()
		b, _ := os.ReadFile(p)
		for _, f := range forms {
			if bytes.Contains(b, []byte(f)) {
				t.Errorf("%s holds the secret as %q", p, f)
			}
		}
		return nil
	})
	har, _ := os.ReadFile(filepath.Join(dir, trace.HARFile))
	if !bytes.Contains(har, []byte(`"Bearer \u003csecret\u003epw\u003c/secret\u003e"`)) && !bytes.Contains(har, []byte("Bearer <secret>pw</secret>")) {
		t.Errorf("the HAR lacks the masked header:\n%s", har)
	}
	// The limit of the issue: a 10-step trace under 5 MB.
	if size > 5<<20 {
		t.Errorf("a 10-step trace is %d bytes", size)
	}
	t.Logf("10 steps: %d bytes", size)
}

func TestReadDamaged(t *testing.T) {
	t.Parallel()
	good := filepath.Join(t.TempDir(), "good")
	writeTrace(t, good, 3, trace.Options{})
	data, err := os.ReadFile(filepath.Join(good, trace.EventsFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	cases := []struct {
		name, content string
		want          string
		truncated     bool
	}{
		{"truncated", strings.Join(lines[:5], "") + lines[5][:len(lines[5])/2], "line 6 is cut short; the events before it are read (2 steps)", true},
		{"corrupt line", lines[0] + lines[1] + "{\"type\":\"step\",\x00garbage\n" + strings.Join(lines[3:], ""), "line 3: not a JSON event", false},
		{"empty", "", "the file is empty", false},
		{"not a trace", `{"hello":1}` + "\n", "line 1: the first event is \"\", not the header", false},
		{"newer version", strings.Replace(lines[0], `"version":1`, `"version":7`, 1), "format version 7; this webagent reads version 1", false},
		{"bad field", lines[0] + `{"type":"step","iteration":"one"}` + "\n", "line 2: a step event that does not fit the format", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, trace.EventsFile), []byte(c.content), 0o644); err != nil {
				t.Fatal(err)
			}
			tr, err := trace.Read(dir)
			if err == nil || !strings.Contains(err.Error(), c.want) || errors.Is(err, trace.ErrTruncated) != c.truncated {
				t.Fatalf("error %v; want one saying %q", err, c.want)
			}
			if c.truncated && (tr == nil || len(tr.Steps) != 2) {
				t.Fatalf("a truncated trace should keep its first steps: %+v", tr)
			}
			// The viewer is written for a truncated trace, refused otherwise.
			verr := trace.WriteViewer(dir)
			if _, serr := os.Stat(filepath.Join(dir, trace.ViewerFile)); (serr == nil) != c.truncated || verr == nil {
				t.Fatalf("viewer: %v, %v", verr, serr)
			}
		})
	}
	if _, err := trace.Read(t.TempDir()); err == nil || !strings.Contains(err.Error(), "is not a trace: it has no trace.jsonl") {
		t.Fatalf("missing: %v", err)
	}
	if _, err := trace.Create(good, trace.Header{}, trace.Options{}); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("a used folder: %v", err)
	}
}

// BenchmarkTraceStep measures what tracing adds to one step of the loop:
// the snapshot hook (it starts the previous step's screenshot in the
// background, to run while the model thinks), the model event (a
// 3000-token snapshot, the whole conversation) and the step event, masked
// and written. The capture is Chromium's (browser's
// BenchmarkScreenshotJPEG) and overlaps the model call.
func BenchmarkTraceStep(b *testing.B) {
	png := screenshot(b)
	jpg, err := trace.ToJPEG(png, trace.DefaultMaxShotWidth, trace.DefaultJPEGQuality)
	if err != nil {
		b.Fatal(err)
	}
	w, err := trace.Create(filepath.Join(b.TempDir(), "t"), trace.Header{}, trace.Options{
		Masker: secretpkg.NewMasker(map[string]string{"pw": secret}), Shots: jpegPage{page{png}, jpg}, Activity: page{}})
	if err != nil {
		b.Fatal(err)
	}
	tools := []contract.ToolDef{{Name: "click", Parameters: []byte(`{}`)}}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		traceOne(w, i+1, tools)
	}
	b.StopTimer()
	if err := w.End(context.Background(), nil); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkShotFromPNG is the background work per step for a browser that
// gives PNG screenshots only: decode, scale down, encode as JPEG.
func BenchmarkShotFromPNG(b *testing.B) {
	png := screenshot(b)
	for b.Loop() {
		if _, err := trace.ToJPEG(png, trace.DefaultMaxShotWidth, trace.DefaultJPEGQuality); err != nil {
			b.Fatal(err)
		}
	}
}

// writeSteps writes a trace whose steps each click the element named by
// the step's snapshot line.
func writeSteps(t *testing.T, start string, snaps ...string) *trace.Trace {
	dir := filepath.Join(t.TempDir(), "t")
	w, err := trace.Create(dir, trace.Header{Task: "buy the mug", URL: start}, trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, snap := range snaps {
		ref := snap[strings.Index(snap, "[ref=")+5 : strings.LastIndex(snap, "]")]
		args := `{"ref":"` + ref + `"}`
		w.TraceModel(agent.ModelCall{Iteration: i + 1, Observation: "Snapshot:\n" + snap})
		w.TraceStep(context.Background(), agent.Step{Iteration: i + 1, URL: start + "shop",
			Actions: []agent.ActionRecord{{Tool: "click", Args: []byte(args), Outcome: "clicked"}}})
	}
	if err := w.End(context.Background(), &agent.Result{Code: agent.CodeSuccess}); err != nil {
		t.Fatal(err)
	}
	tr, err := trace.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestCompare: refs and the site's port do not count, the element does.
func TestCompare(t *testing.T) {
	t.Parallel()
	a := writeSteps(t, "http://127.0.0.1:4001/", `link "Mugs" [ref=e3]`, `button "Add to cart" [ref=e9]`, `link "Cart" [ref=e2]`)
	b := writeSteps(t, "http://127.0.0.1:5002/", `link "Mugs" [ref=e7]`, `button "Add to cart" [ref=e14]`, `link "Cart" [ref=e2]`)
	if d := trace.Compare(a, b); !d.Same() {
		t.Fatalf("same steps with other refs and ports differ at step %d:\n%s\n%s", d.Step, d.OldStep, d.NewStep)
	}
	c := writeSteps(t, "http://127.0.0.1:5002/", `link "Mugs" [ref=e3]`, `button "Add to wishlist" [ref=e9]`)
	d := trace.Compare(a, c)
	var out strings.Builder
	d.Write(&out)
	if d.Step != 2 || !strings.Contains(out.String(), `click ref="button \"Add to cart\""`) || !strings.Contains(out.String(), `click ref="button \"Add to wishlist\""`) {
		t.Fatalf("step %d:\n%s", d.Step, out.String())
	}
}
