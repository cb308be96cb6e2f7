package report

import (
	"fmt"
	"strings"
)

// The parts of report.md that honest statistics add: the headline rate
// with its interval, the split by site and level, pass@k, the judge's
// agreement with people, and each judged run's verdict.

// headline is the rate over the scored runs with its interval, the runs
// left unscored, and the money.
func headline(s *Summary) string {
	line := fmt.Sprintf("Success rate **%s** (95%% interval %s) over %d scored runs.", fmtPct(s.Rate.Rate), fmtInterval(s.Rate), s.Rate.N)
	if s.Unscored > 0 {
		line += fmt.Sprintf(" **%d unscored** (no verdict): counted apart, not in any rate.", s.Unscored)
	}
	switch {
	case s.MeanScore != nil:
		line += fmt.Sprintf(" Mean rubric score **%.1f** of 100.", *s.MeanScore)
	case s.ScoreWithheld != "":
		line += " Mean rubric score withheld: " + s.ScoreWithheld + "."
	}
	total := s.CostUSD + s.JudgeCostUSD
	switch {
	case total == 0 && s.UnpricedRuns > 0:
		line += fmt.Sprintf(" Cost: no price for the model (tokens only: %d).", s.Tokens)
	default:
		line += fmt.Sprintf(" Cost: **%s** (agent %s, judge %s)", fmtMoney(total), fmtMoney(s.CostUSD), fmtMoney(s.JudgeCostUSD))
		if s.UnpricedRuns > 0 {
			line += fmt.Sprintf(", not counting %d runs whose model has no price", s.UnpricedRuns)
		}
		line += "."
	}
	return line
}

// writeGroups writes the table of the runs by site or by level.
func writeGroups(b *strings.Builder, what string, groups []Group, noPrice bool) {
	if len(groups) == 0 {
		return
	}
	fmt.Fprintf(b, "\n## Success by %s\n\n| %s | passed | scored | success | 95%% interval | unscored | median steps | median time | cost |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n", what, what)
	for _, g := range groups {
		fmt.Fprintf(b, "| %s | %d | %d | %s | %s | %d | %s | %s | %s |\n", mdEscape(g.Name), g.Rate.Passed, g.Rate.N, fmtPct(g.Rate.Rate),
			fmtInterval(g.Rate), g.Unscored, fmtNum(g.MedianSteps), fmtMS(g.MedianMS), fmtUSD(g.CostUSD, noPrice))
	}
}

func writePassK(b *strings.Builder, ps []PassK) {
	if len(ps) == 0 {
		return
	}
	b.WriteString("\n## pass@k and pass^k\n\npass@k: the chance that at least one of k tries of a task succeeds; pass^k: that all k do.\n\n| k | pass@k | pass^k | tasks |\n|---:|---:|---:|---:|\n")
	for _, p := range ps {
		fmt.Fprintf(b, "| %d | %s | %s | %d |\n", p.K, fmtPct(p.At), fmtPct(p.Hat), p.Tasks)
	}
}

func writeAgreement(b *strings.Builder, a *Agreement) {
	if a == nil {
		return
	}
	fmt.Fprintf(b, "\n## The judge against human labels\n\nOver %d judged runs that carry a person's verdict: accuracy **%s**, precision of success %s, recall of success %s "+
		"(both success %d, only the judge %d, only the person %d, both failure %d).\n",
		a.N, fmtRatio(a.Accuracy), fmtRatio(a.Precision), fmtRatio(a.Recall), a.TP, a.FP, a.FN, a.TN)
}

// writeVerdicts lists each judged run: its verdict and reasons, or why it
// has none; its key points; the steps the judge chose.
func writeVerdicts(b *strings.Builder, runs []Run) {
	n := 0
	for _, run := range runs {
		if run.Kind != KindDataset {
			continue
		}
		if n == 0 {
			b.WriteString("\n## Verdicts\n\n")
		}
		n++
		v := run.Judge
		fmt.Fprintf(b, "- **%s**", mdEscape(runLabel(run)))
		if run.Site != "" {
			fmt.Fprintf(b, " (%s", mdEscape(run.Site))
			if run.Level != "" {
				fmt.Fprintf(b, ", %s", run.Level)
			}
			b.WriteString(")")
		}
		switch {
		case v == nil:
			b.WriteString(": unscored: not judged\n")
			continue
		case !v.Scored():
			fmt.Fprintf(b, ": unscored: %s\n", mdEscape(oneLine(v.Why)))
		default:
			fmt.Fprintf(b, ": **%s**: %s\n", v.Outcome, mdEscape(oneLine(v.Reasons)))
		}
		if run.HumanLabel != nil {
			fmt.Fprintf(b, "  - a person's verdict: %s\n", map[bool]string{true: "success", false: "failure"}[*run.HumanLabel])
		}
		writeFindings(b, run)
		if len(v.KeyPoints) > 0 {
			fmt.Fprintf(b, "  - key points: %s\n", mdEscape(strings.Join(v.KeyPoints, "; ")))
		}
		for _, st := range v.Steps {
			if st.Chosen {
				fmt.Fprintf(b, "  - chosen step %d (score %d%s): %s\n", st.Iteration, st.Score, shotRef(run, st.Screenshot), mdEscape(oneLine(st.Reason)))
			}
		}
	}
}

func shotRef(run Run, shot string) string {
	if shot == "" || run.Trace == "" {
		return ""
	}
	return ", " + run.Trace + "/" + shot
}

func fmtPct(f float64) string { return fmt.Sprintf("%.0f%%", f*100) }

func fmtRatio(f *float64) string {
	if f == nil {
		return "n/a"
	}
	return fmtPct(*f)
}

func fmtInterval(iv Interval) string {
	if iv.N == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.0f%%–%.0f%%", iv.Low*100, iv.High*100)
}

// fmtMoney writes US dollars with enough digits for a fraction of a
// cent.
func fmtMoney(v float64) string {
	if v >= 10 {
		return fmt.Sprintf("$%.2f", v)
	}
	return fmt.Sprintf("$%.4f", v)
}

// fmtUSD is a cost cell: "tokens only" when nothing had a price.
func fmtUSD(v float64, noPrice bool) string {
	if noPrice {
		return "tokens only"
	}
	return fmtMoney(v)
}

// Headline is the summary's one line in plain text: the rate over the
// scored runs with its 95% interval, the runs left unscored, the cost.
func Headline(s *Summary) string { return strings.ReplaceAll(headline(s), "**", "") }

// writeFindings lists a rubric run's score and each item's finding with
// its weight and evidence.
func writeFindings(b *strings.Builder, run Run) {
	if run.Rubric == nil || run.Judge == nil {
		return
	}
	if run.Score != nil {
		fmt.Fprintf(b, "  - score **%.0f** of 100", *run.Score)
		if run.Zeroed != "" {
			fmt.Fprintf(b, " (zeroed: %s)", mdEscape(run.Zeroed))
		}
		b.WriteString("\n")
	}
	for _, f := range run.Judge.Findings {
		fmt.Fprintf(b, "  - %s (weight %d): **%s**: %s\n", mdEscape(f.Item), run.Rubric.Weights[f.Item], f.Finding, mdEscape(oneLine(f.Evidence)))
	}
}
