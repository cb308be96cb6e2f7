package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/judge"
)

func judged(id, site, level, outcome string, label *bool, agentUSD float64) Run {
	r := Run{ID: id, Suite: "webvoyager", Kind: KindDataset, Site: site, Level: level, HumanLabel: label, Iterations: 4, DurationMS: 2000,
		Tokens: contract.Usage{TotalTokens: 1000}, CostUSD: &agentUSD, Trace: "traces/webvoyager_" + id}
	judgeUSD := 0.01
	v := &judge.Verdict{Outcome: outcome, Model: "judge-m", KeyPoints: []string{"open the page", "read the price"}, CostUSD: &judgeUSD,
		Usage: contract.Usage{TotalTokens: 100},
		Steps: []judge.ScoredStep{{Iteration: 1, Score: 2}, {Iteration: 2, Score: 5, Reason: "the price is shown", Chosen: true, Screenshot: "shots/0002.jpg"}}}
	switch outcome {
	case judge.Success:
		r.Success, r.Code, v.Reasons = true, "SUCCESS", "the price is on the page"
	case judge.Failure:
		r.Code, v.Reasons = CodeJudgedFailure, "the price was never shown"
	default:
		r.Code, v.Why, v.Steps = CodeUnscored, "the judge did not decide within its timeout of 5m0s", nil
	}
	r.Judge = v
	return r
}

// TestJudgedSummary works a judged report by hand: five scored runs, three
// judged successes: 60%, Wilson [23.1%, 88.2%]; one unscored run, left out
// of every rate and of the agreement. Against people's verdicts (the
// unscored run's aside): both success 2 (d1, d5), only the judge 1 (d3),
// only the person 1 (d2), both failure 1 (d4): accuracy 3/5 = 60%,
// precision 2/3 = 67%, recall 2/3 = 67%.
func TestJudgedSummary(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	r := &Report{Version: Version, Model: "agent-m", Judge: "judge-m", Workers: 1, Planned: 6, Runs: []Run{
		judged("d1", "Recipes", "easy", judge.Success, &yes, 0.10),
		judged("d2", "Recipes", "hard", judge.Failure, &yes, 0.10),
		judged("d3", "Maps", "easy", judge.Success, &no, 0.10),
		judged("d4", "Maps", "easy", judge.Failure, &no, 0.10),
		judged("d5", "Maps", "hard", judge.Success, &yes, 0.10),
		judged("d6", "Recipes", "easy", judge.Unscored, &yes, 0.10),
	}}
	s := r.Summarize()
	if s.Rate.Passed != 3 || s.Rate.N != 5 || s.Unscored != 1 || !near(s.Rate.Low, 0.2307, 1e-4) || !near(s.Rate.High, 0.8824, 1e-4) {
		t.Errorf("rate %+v, unscored %d", s.Rate, s.Unscored)
	}
	a := s.Agreement
	if a == nil || a.N != 5 || a.TP != 2 || a.FP != 1 || a.FN != 1 || a.TN != 1 || !near(*a.Accuracy, 0.6, 1e-12) ||
		!near(*a.Precision, 2.0/3, 1e-12) || !near(*a.Recall, 2.0/3, 1e-12) {
		t.Errorf("agreement %+v", a)
	}
	if len(s.BySite) != 2 || s.BySite[0].Name != "Maps" || s.BySite[0].Rate.Passed != 2 || s.BySite[0].Rate.N != 3 ||
		s.BySite[1].Name != "Recipes" || s.BySite[1].Unscored != 1 || s.BySite[1].Rate.N != 2 {
		t.Errorf("by site %+v", s.BySite)
	}
	if len(s.ByLevel) != 2 || s.ByLevel[0].Name != "easy" || s.ByLevel[0].Rate.N != 3 || s.ByLevel[0].Unscored != 1 {
		t.Errorf("by level %+v", s.ByLevel)
	}
	if !near(s.CostUSD, 0.6, 1e-9) || !near(s.JudgeCostUSD, 0.06, 1e-9) || s.UnpricedRuns != 0 || s.PassK != nil {
		t.Errorf("cost %v + %v, unpriced %d, pass@k %v", s.CostUSD, s.JudgeCostUSD, s.UnpricedRuns, s.PassK)
	}

	dir := t.TempDir()
	if err := r.WriteAll(dir); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	for _, want := range []string{
		"Success rate **60%** (95% interval 23%–88%) over 5 scored runs. **1 unscored**",
		"Cost: **$0.6600** (agent $0.6000, judge $0.0600)",
		"| Maps | 2 | 3 | 67% |", "| easy | 2 | 3 | 67% |",
		"accuracy **60%**, precision of success 67%, recall of success 67%",
		"- **d1** (Recipes, easy): **success**: the price is on the page",
		"- **d6** (Recipes, easy): unscored: the judge did not decide within its timeout",
		"key points: open the page; read the price",
		"chosen step 2 (score 5, traces/webvoyager_d1/shots/0002.jpg): the price is shown",
		"| webvoyager | d6 | unscored | UNSCORED |",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	html, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	for _, want := range []string{`id="agreement"`, `id="sites"`, `id="levels"`, `<span class="unscored">unscored</span>`, "read the price",
		`src="traces/webvoyager_d1/shots/0002.jpg"`, "95% interval 23%–88%"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	back, err := Load(filepath.Join(dir, "report.json"))
	if err != nil || back.Summary == nil || back.Summary.Agreement.TP != 2 || back.Runs[0].Judge.KeyPoints[1] != "read the price" {
		t.Errorf("report.json: %v %+v", err, back.Summary)
	}
}

// TestRepeatsSummary: task x passes 2 of 3 tries, task y none: pass@1 =
// 1/3, pass@2 = (1 + 0)/2 = 50%, pass^2 = (1/3 + 0)/2 = 17%, pass^3 =
// 0; the model has no price, so the cost is tokens only.
func TestRepeatsSummary(t *testing.T) {
	t.Parallel()
	var runs []Run
	for i, ok := range []bool{true, false, true} {
		r := run("s", "x", ok, 100, 10)
		r.Repeat = i + 1
		runs = append(runs, r)
	}
	for i := range 3 {
		r := run("s", "y", false, 100, 10)
		r.Repeat = i + 1
		runs = append(runs, r)
	}
	rep := &Report{Version: Version, Model: "m", Runs: runs}
	s := rep.Summarize()
	if len(s.PassK) != 3 || !near(s.PassK[0].At, 1.0/3, 1e-12) || !near(s.PassK[1].At, 0.5, 1e-12) || !near(s.PassK[1].Hat, 1.0/6, 1e-12) ||
		s.PassK[2].Hat != 0 || s.PassK[2].Tasks != 2 {
		t.Errorf("pass@k %+v", s.PassK)
	}
	md := rep.Markdown()
	for _, want := range []string{"| 2 | 50% | 17% | 2 |", "x (try 2)", "Cost: no price for the model (tokens only: 60)."} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	if k := runs[1].Key(); k != "s/x@2" || runs[1].TaskKey() != "s/x" {
		t.Errorf("key %q, task key %q", k, runs[1].TaskKey())
	}
}

// TestCompareSignificance: ten tasks in both reports, 1 passed only
// before and 9 only now: McNemar p = 22/1024 = 0.0215, beyond chance;
// 1 and 2: p = 1, within chance. Reports that share no task fall back
// to Fisher's test.
func TestCompareSignificance(t *testing.T) {
	t.Parallel()
	mk := func(prefix string, pass []bool) *Report {
		r := &Report{Version: Version}
		for i, ok := range pass {
			r.Runs = append(r.Runs, run("s", prefix+string(rune('a'+i)), ok, 100, 1))
		}
		return r
	}
	old := mk("t", []bool{true, false, false, false, false, false, false, false, false, false, true})
	cur := mk("t", []bool{false, true, true, true, true, true, true, true, true, true, true})
	d := Compare(old, cur, 500)
	if d.Change.Test != "McNemar" || d.Change.Pairs != 11 || d.Change.OnlyOld != 1 || d.Change.OnlyNew != 9 || !near(d.Change.P, 22.0/1024, 1e-12) || !d.Change.Beyond {
		t.Errorf("significance %+v", d.Change)
	}
	var b strings.Builder
	d.Write(&b)
	if !strings.Contains(b.String(), "the difference is BEYOND CHANCE: McNemar's exact test on the 11 tasks scored in both, 1 passed only before and 9 only now, p = 0.0215") {
		t.Errorf("output:\n%s", b.String())
	}
	small := mk("t", []bool{false, true, true, false, false, false, false, false, false, false, true})
	if d := Compare(old, small, 500); d.Change.Beyond || d.Change.P != 1 {
		t.Errorf("1 against 2: %+v", d.Change)
	}
	other := mk("u", []bool{true, true, true, true, true, true, true, true, true, true, true})
	if d := Compare(old, other, 500); d.Change.Test != "Fisher" || !d.Change.Beyond {
		t.Errorf("no shared task: %+v", d.Change)
	}
}
