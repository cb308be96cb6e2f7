package report

import (
	"fmt"
	"strconv"
	"strings"
)

// Markdown renders the summary: success per suite, codes, iterations,
// tokens, time per task, iteration latency by phase, and the failures with
// their messages.
func (r *Report) Markdown() string {
	var b strings.Builder
	sum := r.Summarize()
	r.mdHead(&b, sum)
	r.mdSuites(&b, sum)
	r.mdInput(&b)
	writeGroups(&b, "site", sum.BySite, sum.UnpricedRuns == len(r.Runs))
	writeGroups(&b, "level", sum.ByLevel, sum.UnpricedRuns == len(r.Runs))
	writePassK(&b, sum.PassK)
	writeAgreement(&b, sum.Agreement)

	b.WriteString("\n## Codes\n\n| code | runs |\n|---|---:|\n")
	for _, c := range r.Codes() {
		fmt.Fprintf(&b, "| %s | %d |\n", c.Code, c.Count)
	}

	b.WriteString(r.cacheMarkdown())
	b.WriteString("\n## Iteration latency\n\n| phase | iterations | p50 | p95 |\n|---|---:|---:|---:|\n")
	for _, l := range r.Latencies() {
		fmt.Fprintf(&b, "| %s | %d | %s | %s |\n", l.Phase, l.N, fmtMS(l.P50), fmtMS(l.P95))
	}
	r.mdFaults(&b)
	r.mdTasks(&b)
	writeVerdicts(&b, r.Runs)
	r.mdFailures(&b)
	if len(r.NotRun) > 0 {
		fmt.Fprintf(&b, "\n## Not run\n\n%s\n", mdEscape(strings.Join(r.NotRun, ", ")))
	}
	return b.String()
}

// mdHead writes the title, the model, the headline rate and cost, and
// whether the report is partial or was stopped.
func (r *Report) mdHead(b *strings.Builder, sum *Summary) {
	fmt.Fprintf(b, "# webagent eval\n\n")
	fmt.Fprintf(b, "Model **%s**, %d workers, started %s, took %.1f s.",
		mdEscape(r.Model), r.Workers, r.Started.UTC().Format("2006-01-02 15:04:05 UTC"), float64(r.DurationMS)/1000)
	fmt.Fprintf(b, " **%d of %d runs passed.**\n", r.Passed(), len(r.Runs))
	b.WriteString("\n" + headline(sum) + "\n")
	if r.Judge != "" {
		fmt.Fprintf(b, "\nRuns without checks were judged by **%s** (WebJudge: key points, key steps, verdict).\n", mdEscape(r.Judge))
	}
	if r.Partial {
		fmt.Fprintf(b, "\n**Partial report**: the run was interrupted; %d of %d planned runs were made.\n", len(r.Runs), r.Planned)
	}
	if r.Stopped != "" {
		fmt.Fprintf(b, "\n**Stopped early**: %s\n", mdEscape(r.Stopped))
	}
}

// mdSuites writes the success by suite.
func (r *Report) mdSuites(b *strings.Builder, sum *Summary) {
	b.WriteString("\n## Success by suite\n\n")
	b.WriteString("| suite | passed | runs | success | median iterations | tokens | tokens/task | prompt tokens | a prefix of the previous request | cached | median time/task | mean time/task | 95% interval | unscored | cost |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	costs := map[string]float64{"all": sum.CostUSD + sum.JudgeCostUSD}
	for _, g := range sum.BySuite {
		costs[g.Name] = g.CostUSD
	}
	for _, s := range r.SuiteStats() {
		name := mdEscape(s.Suite)
		if s.Suite == "all" {
			name = "**all**"
		}
		fmt.Fprintf(b, "| %s | %d | %d | %.0f%% | %s | %d | %.0f | %d | %s | %d | %s | %s | %s | %d | %s |\n",
			name, s.Passed, s.Runs, s.Rate*100, fmtNum(s.MedianIterations), s.Tokens, s.TokensPerRun,
			s.Prompt, share(s.Prefix, s.Prompt), s.Cached, fmtMS(s.MedianMS), fmtMS(s.MeanMS),
			fmtInterval(s.Interval), s.Unscored, fmtUSD(costs[s.Suite], sum.UnpricedRuns == len(r.Runs)))
	}
}

// mdFaults writes the fault runs: what was seen against the bound.
func (r *Report) mdFaults(b *strings.Builder) {
	var faults []Run
	for _, run := range r.Runs {
		if run.Kind == "fault" {
			faults = append(faults, run)
		}
	}
	if len(faults) == 0 {
		return
	}
	b.WriteString("\n## Faults\n\n| fault | expected | seen | time | bound | within bound |\n|---|---|---|---:|---:|---|\n")
	for _, f := range faults {
		within := "yes"
		if f.BoundMS > 0 && f.DurationMS > f.BoundMS {
			within = "**no**"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", mdEscape(f.Fault), mdEscape(f.Expected), mdEscape(f.Seen),
			fmtMS(float64(f.DurationMS)), fmtMS(float64(f.BoundMS)), within)
	}
}

// mdTasks writes a line per run.
func (r *Report) mdTasks(b *strings.Builder) {
	b.WriteString("\n## Tasks\n\n| suite | task | result | code | iterations | time | tokens | cost | prompt tokens | a prefix of the previous request | " +
		"input, no cache | input, prefix cached | input, as billed |\n|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, run := range r.Runs {
		res := "pass"
		switch {
		case !run.Scored():
			res = "unscored"
		case !run.Success:
			res = "**FAIL**"
		}
		usd, unknown := run.Spent()
		fmt.Fprintf(b, "| %s | %s | %s | %s | %d | %s | %d | %s | %d | %s | %s |\n", mdEscape(run.Suite), mdEscape(runLabel(run)), res, run.Code,
			run.Iterations, fmtMS(float64(run.DurationMS)), run.Tokens.TotalTokens, fmtUSD(usd, unknown && usd == 0),
			run.Tokens.PromptTokens, share(run.Tokens.PrefixTokens, run.Tokens.PromptTokens), inputCells(run.Input))
	}
}

// mdFailures lists the failed runs with checks, each with its message and
// failed checks (judged runs are in the verdicts).
func (r *Report) mdFailures(b *strings.Builder) {
	var failed []Run
	for _, run := range r.Runs {
		if !run.Success && run.Scored() && run.Kind != KindDataset {
			failed = append(failed, run)
		}
	}
	if len(failed) == 0 {
		return
	}
	b.WriteString("\n## Failures\n\n")
	for _, run := range failed {
		fmt.Fprintf(b, "- **%s** (%s): %s\n", mdEscape(runLabel(run)), run.Code, mdEscape(oneLine(run.Message)))
		for _, c := range run.Checks {
			if !c.Pass {
				fmt.Fprintf(b, "  - check `%s` (line %d): %s\n", strings.ReplaceAll(c.Check, "`", "'"), c.Line, mdEscape(oneLine(c.Message)))
			}
		}
	}
}

func runLabel(r Run) string {
	l := r.ID
	if r.Seed != nil {
		l += fmt.Sprintf(" (seed %d)", *r.Seed)
	}
	if r.Repeat > 0 {
		l += fmt.Sprintf(" (try %d)", r.Repeat)
	}
	if r.Fault != "" && r.Fault != r.ID {
		l += " [" + r.Fault + "]"
	}
	return l
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

func fmtNum(f float64) string {
	if f == float64(int64(f)) {
		return fmt.Sprintf("%d", int64(f))
	}
	return fmt.Sprintf("%.1f", f)
}

func fmtMS(ms float64) string {
	if ms >= 1000 {
		return fmt.Sprintf("%.2f s", ms/1000)
	}
	return fmt.Sprintf("%.0f ms", ms)
}

// share writes part and its share of whole: "1200 (80%)".
func share(part, whole int) string {
	if whole == 0 {
		return strconv.Itoa(part)
	}
	return fmt.Sprintf("%d (%.0f%%)", part, 100*float64(part)/float64(whole))
}
