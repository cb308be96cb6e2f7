package report

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/eval/suite"
)

func run(suiteName, id string, ok bool, ms int64, tokens int) Run {
	code := "SUCCESS"
	if !ok {
		code = CodeChecksFailed
	}
	return Run{ID: id, Suite: suiteName, Kind: "task", Success: ok, Code: code, Iterations: 3, DurationMS: ms,
		Tokens: contract.Usage{TotalTokens: tokens}, Message: "why " + id,
		Checks: []suite.CheckResult{{Check: `answer_contains "x"`, Line: 7, Pass: ok, Message: "the answer lacks x"}},
		Steps:  []Step{{Iteration: 1, SnapshotMS: 10, LLMMS: 100, ActionMS: 50}, {Iteration: 2, SnapshotMS: 30, LLMMS: 300, ActionMS: 70}}}
}

func sample() *Report {
	return &Report{Version: Version, Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), DurationMS: 4000, Model: "m", Workers: 2, Planned: 3,
		Runs: []Run{run("shop", "a", true, 1000, 100), run("shop", "b", true, 2000, 200), run("mail", "c", false, 3000, 300)}}
}

func TestPercentile(t *testing.T) {
	t.Parallel()
	v := []float64{5, 1, 4, 2, 3}
	for _, c := range []struct{ p, want float64 }{{0, 1}, {50, 3}, {100, 5}, {95, 4.8}, {25, 2}} {
		if got := Percentile(v, c.p); got != c.want {
			t.Errorf("p%v = %v, want %v", c.p, got, c.want)
		}
	}
	if Percentile(nil, 50) != 0 {
		t.Error("empty")
	}
}

func TestStatsAndMarkdown(t *testing.T) {
	t.Parallel()
	r := sample()
	st := r.SuiteStats()
	if len(st) != 3 || st[0].Suite != "mail" || st[1].Suite != "shop" || st[2].Suite != "all" {
		t.Fatalf("stats %+v", st)
	}
	if st[1].Rate != 1 || st[1].MedianMS != 1500 || st[1].Tokens != 300 || st[2].Passed != 2 {
		t.Errorf("stats %+v", st)
	}
	lat := r.Latencies()
	if lat[1].Phase != "model" || lat[1].P50 != 200 || lat[1].N != 6 {
		t.Errorf("latency %+v", lat)
	}
	md := r.Markdown()
	for _, want := range []string{"**2 of 3 runs passed.**", "| shop | 2 | 2 | 100% | 3 | 300 | 150 | 0 | 0 | 0 | 1.50 s |", "| mail | 0 | 1 | 0% |",
		"| CHECKS_FAILED | 1 |", "| model | 6 | 200 ms |", "check `answer_contains \"x\"` (line 7): the answer lacks x"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

func TestWriteAndLoad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := sample()
	if err := r.WriteAll(dir); err != nil {
		t.Fatal(err)
	}
	got, err := Load(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Runs) != 3 || got.Runs[2].Checks[0].Line != 7 {
		t.Fatalf("loaded %+v", got)
	}
	if _, err := Load(filepath.Join(dir, "report.md")); err == nil {
		t.Fatal("report.md loaded as JSON")
	}
}

func TestCompare(t *testing.T) {
	t.Parallel()
	old := sample()
	cur := sample()
	cur.Runs[0] = run("shop", "a", false, 1000, 100) // regression
	cur.Runs[2] = run("mail", "c", true, 9000, 900)  // improvement, slower, more tokens
	cur.Runs = append(cur.Runs, run("wiki", "d", true, 10, 1))
	d := Compare(old, cur, 500)
	if len(d.Regressions) != 1 || d.Regressions[0].Key != "shop/a" {
		t.Errorf("regressions %+v", d.Regressions)
	}
	if len(d.Improvements) != 1 || d.Improvements[0].Key != "mail/c" {
		t.Errorf("improvements %+v", d.Improvements)
	}
	if len(d.Slower) != 1 || len(d.MoreTokens) != 1 || len(d.Added) != 1 {
		t.Errorf("slower %d, more tokens %d, added %v", len(d.Slower), len(d.MoreTokens), d.Added)
	}
	var b bytes.Buffer
	d.Write(&b)
	for _, want := range []string{"REGRESSIONS", "shop/a: SUCCESS → CHECKS_FAILED", "improvements", "mail/c", "slower", "+6000 ms", "only in the new report"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
	if d := Compare(old, old, 500); len(d.Regressions)+len(d.Improvements)+len(d.Slower) != 0 {
		t.Errorf("a report differs from itself: %+v", d)
	}
}
