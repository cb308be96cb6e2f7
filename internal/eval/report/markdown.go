package report

import (
	"fmt"
	"strings"
)

// Markdown renders the summary: success per suite, codes, iterations,
// tokens, time per task, iteration latency by phase, and the failures with
// their messages.
func (r *Report) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# webagent eval\n\n")
	fmt.Fprintf(&b, "Model **%s**, %d workers, started %s, took %.1f s.",
		mdEscape(r.Model), r.Workers, r.Started.UTC().Format("2006-01-02 15:04:05 UTC"), float64(r.DurationMS)/1000)
	fmt.Fprintf(&b, " **%d of %d runs passed.**\n", r.Passed(), len(r.Runs))
	if r.Partial {
		fmt.Fprintf(&b, "\n**Partial report**: the run was interrupted; %d of %d planned runs were made.\n", len(r.Runs), r.Planned)
	}

	b.WriteString("\n## Success by suite\n\n")
	b.WriteString("| suite | passed | runs | success | median iterations | tokens | tokens/task | median time/task | mean time/task |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range r.SuiteStats() {
		name := mdEscape(s.Suite)
		if s.Suite == "all" {
			name = "**all**"
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %.0f%% | %s | %d | %.0f | %s | %s |\n",
			name, s.Passed, s.Runs, s.Rate*100, fmtNum(s.MedianIterations), s.Tokens, s.TokensPerRun, fmtMS(s.MedianMS), fmtMS(s.MeanMS))
	}

	b.WriteString("\n## Codes\n\n| code | runs |\n|---|---:|\n")
	for _, c := range r.Codes() {
		fmt.Fprintf(&b, "| %s | %d |\n", c.Code, c.Count)
	}

	b.WriteString(r.cacheMarkdown())
	b.WriteString("\n## Iteration latency\n\n| phase | iterations | p50 | p95 |\n|---|---:|---:|---:|\n")
	for _, l := range r.Latencies() {
		fmt.Fprintf(&b, "| %s | %d | %s | %s |\n", l.Phase, l.N, fmtMS(l.P50), fmtMS(l.P95))
	}

	var faults []Run
	for _, run := range r.Runs {
		if run.Kind == "fault" {
			faults = append(faults, run)
		}
	}
	if len(faults) > 0 {
		b.WriteString("\n## Faults\n\n| fault | expected | seen | time | bound | within bound |\n|---|---|---|---:|---:|---|\n")
		for _, f := range faults {
			within := "yes"
			if f.BoundMS > 0 && f.DurationMS > f.BoundMS {
				within = "**no**"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", mdEscape(f.Fault), mdEscape(f.Expected), mdEscape(f.Seen),
				fmtMS(float64(f.DurationMS)), fmtMS(float64(f.BoundMS)), within)
		}
	}

	b.WriteString("\n## Tasks\n\n| suite | task | result | code | iterations | time | tokens |\n|---|---|---|---|---:|---:|---:|\n")
	for _, run := range r.Runs {
		res := "pass"
		if !run.Success {
			res = "**FAIL**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d | %s | %d |\n", mdEscape(run.Suite), mdEscape(runLabel(run)), res, run.Code,
			run.Iterations, fmtMS(float64(run.DurationMS)), run.Tokens.TotalTokens)
	}

	var failed []Run
	for _, run := range r.Runs {
		if !run.Success {
			failed = append(failed, run)
		}
	}
	if len(failed) > 0 {
		b.WriteString("\n## Failures\n\n")
		for _, run := range failed {
			fmt.Fprintf(&b, "- **%s** (%s): %s\n", mdEscape(runLabel(run)), run.Code, mdEscape(oneLine(run.Message)))
			for _, c := range run.Checks {
				if !c.Pass {
					fmt.Fprintf(&b, "  - check `%s` (line %d): %s\n", strings.ReplaceAll(c.Check, "`", "'"), c.Line, mdEscape(oneLine(c.Message)))
				}
			}
		}
	}
	if len(r.NotRun) > 0 {
		fmt.Fprintf(&b, "\n## Not run\n\n%s\n", mdEscape(strings.Join(r.NotRun, ", ")))
	}
	return b.String()
}

func runLabel(r Run) string {
	l := r.ID
	if r.Seed != nil {
		l += fmt.Sprintf(" (seed %d)", *r.Seed)
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
