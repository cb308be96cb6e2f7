package snapbench

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/webagent/webagent/testfixture/machinelock"
	"github.com/webagent/webagent/testfixture/tier"
)

func TestMain(m *testing.M) {
	_ = machinelock.Shared()
	goleak.VerifyTestMain(m)
}

func TestRunCSV(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out bytes.Buffer
	rows, sum, err := Run(ctx, Config{Dir: "testdata"}, &out)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out.String())
	}
	t.Logf("output:\n%s", out.String())
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 5 || lines[0] != Header {
		t.Fatalf("want the header, 3 rows and a summary line, got %d lines:\n%s", len(lines), out.String())
	}
	for i, name := range []string{"controls.html", "long.html", "shadow.html"} {
		f := strings.Split(lines[i+1], ",")
		if len(f) != 6 || f[0] != name {
			t.Fatalf("row %d = %q", i+1, lines[i+1])
		}
		var n [5]float64
		for j := range n {
			v, err := strconv.ParseFloat(f[j+1], 64)
			if err != nil || v < 0 {
				t.Fatalf("row %q: field %d is not a measure", lines[i+1], j+1)
			}
			n[j] = v
		}
		tokens, refs, interactive, covered := n[0], n[2], n[3], n[4]
		if tokens == 0 || interactive == 0 || covered != interactive || refs < interactive {
			t.Errorf("row %q: want tokens, every interactive element covered, a ref each", lines[i+1])
		}
		for _, m := range rows[i].Missed {
			t.Errorf("%s: no ref for %s", name, m)
		}
	}
	// controls.html: the skip link, the aria-hidden links, the fields, the
	// click-handler div, the role elements, the bare anchor, the editable
	// div, both summaries and the open details' button, the SVG link and
	// the clipped link; not the hidden ones.
	if got := rows[0].Interactive; got != 19 {
		t.Errorf("controls.html: %d interactive elements, want 19", got)
	}
	// shadow.html: the shadow root's and the frame's controls count too.
	if got := rows[2].Interactive; got != 4 {
		t.Errorf("shadow.html: %d interactive elements, want 4", got)
	}
	if !strings.HasPrefix(lines[4], "# 3 pages: tokens median ") || sum.Covered != sum.Interactive || sum.PagesFullyCovered != 3 {
		t.Errorf("summary = %q (%+v)", lines[4], sum)
	}
	// The long page is cut to the default budget.
	if rows[1].Tokens > 3000 {
		t.Errorf("long.html: %d tokens, over the default budget", rows[1].Tokens)
	}
}

func TestPercentile(t *testing.T) {
	t.Parallel()
	xs := []float64{5, 1, 4, 2, 3}
	if got := Percentile(xs, 50); got != 3 {
		t.Errorf("median = %v", got)
	}
	if got := Percentile(xs, 90); got != 4.6 {
		t.Errorf("p90 = %v", got)
	}
	if got := Percentile(nil, 50); got != 0 {
		t.Errorf("median of none = %v", got)
	}
}
