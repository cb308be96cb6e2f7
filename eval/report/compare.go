package report

import (
	"fmt"
	"io"
	"sort"

	"github.com/webagent/webagent/agent"
)

// Change is one run present in both reports.
type Change struct {
	Key              string
	Old, New         Run
	DurationChangeMS int64
	TokensChange     int
}

// Diff is what changed between two reports.
type Diff struct {
	// Regressions passed before and fail now; Improvements the reverse.
	// A run interrupted (CANCELED) in either report is neither: it is in
	// Interrupted.
	Regressions, Improvements []Change
	Interrupted               []Change
	// Slower and Faster changed their time by more than the threshold
	// (Compare's minDelta); MoreTokens and FewerTokens their tokens by
	// more than 10%.
	Slower, Faster          []Change
	MoreTokens, FewerTokens []Change
	// Added are only in the new report, Removed only in the old one.
	Added, Removed     []string
	OldPassed, OldRuns int
	NewPassed, NewRuns int
	OldMS, NewMS       int64
	OldTokens          int
	NewTokens          int
	// OldRate and NewRate are the success rates over the scored runs, with
	// their 95% intervals; Change says whether they differ beyond chance.
	OldRate, NewRate Interval
	Change           Significance
}

// Alpha is the significance level of Compare: a difference whose p-value
// is below it is beyond chance.
const Alpha = 0.05

// Significance is the test of whether two reports' success differs
// beyond chance.
type Significance struct {
	// Test is "McNemar" (exact, on the tasks scored in both reports: the
	// same tasks, so paired) or "Fisher" (exact, on the two rates, when
	// the reports share no scored task); "" when there is nothing to test.
	Test string
	// Pairs are the tasks scored in both reports; OnlyOld passed only in
	// the old one, OnlyNew only in the new one (McNemar).
	Pairs, OnlyOld, OnlyNew int
	P                       float64
	// Beyond is P < Alpha.
	Beyond bool
}

// significance tests the reports' success: paired over the runs both
// scored (McNemar's exact test uses only the tasks whose outcome changed,
// and has more power than comparing two rates), else Fisher's exact test
// of the two rates.
func significance(old, cur *Report) Significance {
	olds := map[string]Run{}
	for _, r := range old.Runs {
		if r.Scored() && r.Code != string(agent.CodeCanceled) {
			olds[r.Key()] = r
		}
	}
	var s Significance
	for _, n := range cur.Runs {
		o, ok := olds[n.Key()]
		if !ok || !n.Scored() || n.Code == string(agent.CodeCanceled) {
			continue
		}
		s.Pairs++
		switch {
		case o.Success && !n.Success:
			s.OnlyOld++
		case !o.Success && n.Success:
			s.OnlyNew++
		}
	}
	if s.Pairs > 0 {
		s.Test, s.P = "McNemar", McNemar(s.OnlyOld, s.OnlyNew)
	} else {
		a, b := rateOf(old), rateOf(cur)
		if a.N == 0 || b.N == 0 {
			return s
		}
		s.Test, s.P = "Fisher", Fisher(a.Passed, a.N, b.Passed, b.N)
	}
	s.Beyond = s.P < Alpha
	return s
}

// rateOf is a report's success over its scored runs.
func rateOf(r *Report) Interval {
	passed, n := 0, 0
	for _, run := range r.Runs {
		if run.Scored() && run.Code != string(agent.CodeCanceled) {
			n++
			if run.Success {
				passed++
			}
		}
	}
	return Wilson(passed, n)
}

// Compare matches the runs of two reports by Run.Key. A time change counts
// when it is larger than 25% and than minDeltaMS.
func Compare(old, new *Report, minDeltaMS int64) *Diff {
	d := &Diff{OldRuns: len(old.Runs), NewRuns: len(new.Runs), OldPassed: old.Passed(), NewPassed: new.Passed(),
		OldRate: rateOf(old), NewRate: rateOf(new), Change: significance(old, new)}
	olds := map[string]Run{}
	for _, r := range old.Runs {
		olds[r.Key()] = r
		d.OldMS += r.DurationMS
		d.OldTokens += r.Tokens.TotalTokens
	}
	seen := map[string]bool{}
	for _, n := range new.Runs {
		k := n.Key()
		seen[k] = true
		d.NewMS += n.DurationMS
		d.NewTokens += n.Tokens.TotalTokens
		o, ok := olds[k]
		if !ok {
			d.Added = append(d.Added, k)
			continue
		}
		c := Change{Key: k, Old: o, New: n, DurationChangeMS: n.DurationMS - o.DurationMS, TokensChange: n.Tokens.TotalTokens - o.Tokens.TotalTokens}
		switch {
		case o.Code == string(agent.CodeCanceled) || n.Code == string(agent.CodeCanceled):
			d.Interrupted = append(d.Interrupted, c)
			continue
		case o.Success && !n.Success:
			d.Regressions = append(d.Regressions, c)
		case !o.Success && n.Success:
			d.Improvements = append(d.Improvements, c)
		}
		if abs(c.DurationChangeMS) > minDeltaMS && abs(c.DurationChangeMS)*4 > o.DurationMS {
			if c.DurationChangeMS > 0 {
				d.Slower = append(d.Slower, c)
			} else {
				d.Faster = append(d.Faster, c)
			}
		}
		if c.TokensChange != 0 && int64(abs(int64(c.TokensChange)))*10 > int64(o.Tokens.TotalTokens) {
			if c.TokensChange > 0 {
				d.MoreTokens = append(d.MoreTokens, c)
			} else {
				d.FewerTokens = append(d.FewerTokens, c)
			}
		}
	}
	for k := range olds {
		if !seen[k] {
			d.Removed = append(d.Removed, k)
		}
	}
	sort.Strings(d.Added)
	sort.Strings(d.Removed)
	byDelta := func(cs []Change) {
		sort.SliceStable(cs, func(i, j int) bool { return abs(cs[i].DurationChangeMS) > abs(cs[j].DurationChangeMS) })
	}
	byDelta(d.Slower)
	byDelta(d.Faster)
	return d
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// Write prints the diff for people.
func (d *Diff) Write(w io.Writer) {
	fmt.Fprintf(w, "passed: %d/%d → %d/%d\n", d.OldPassed, d.OldRuns, d.NewPassed, d.NewRuns)
	fmt.Fprintf(w, "success over scored runs: %s (95%% interval %s) → %s (%s)\n", fmtPct(d.OldRate.Rate), fmtInterval(d.OldRate), fmtPct(d.NewRate.Rate), fmtInterval(d.NewRate))
	fmt.Fprintln(w, d.Change.String())
	fmt.Fprintf(w, "total task time: %s → %s; tokens: %d → %d\n", fmtMS(float64(d.OldMS)), fmtMS(float64(d.NewMS)), d.OldTokens, d.NewTokens)
	section := func(title string, cs []Change, line func(Change) string) {
		if len(cs) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s (%d):\n", title, len(cs))
		for _, c := range cs {
			fmt.Fprintf(w, "  %s: %s\n", c.Key, line(c))
		}
	}
	section("REGRESSIONS, passed before and fail now", d.Regressions, func(c Change) string {
		return fmt.Sprintf("%s → %s: %s", c.Old.Code, c.New.Code, oneLine(failMessage(c.New)))
	})
	section("improvements, failed before and pass now", d.Improvements, func(c Change) string {
		return fmt.Sprintf("%s → %s", c.Old.Code, c.New.Code)
	})
	timeLine := func(c Change) string {
		return fmt.Sprintf("%s → %s (%+d ms)", fmtMS(float64(c.Old.DurationMS)), fmtMS(float64(c.New.DurationMS)), c.DurationChangeMS)
	}
	section("slower", d.Slower, timeLine)
	section("faster", d.Faster, timeLine)
	tokLine := func(c Change) string {
		return fmt.Sprintf("%d → %d (%+d)", c.Old.Tokens.TotalTokens, c.New.Tokens.TotalTokens, c.TokensChange)
	}
	section("more tokens", d.MoreTokens, tokLine)
	section("fewer tokens", d.FewerTokens, tokLine)
	section("interrupted (CANCELED) in one report, not compared", d.Interrupted, func(c Change) string {
		return fmt.Sprintf("%s → %s", c.Old.Code, c.New.Code)
	})
	list := func(title string, keys []string) {
		if len(keys) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s (%d):\n", title, len(keys))
		for _, k := range keys {
			fmt.Fprintf(w, "  %s\n", k)
		}
	}
	list("only in the new report", d.Added)
	list("only in the old report", d.Removed)
	if len(d.Regressions) == 0 {
		fmt.Fprintln(w, "\nno regressions")
	}
}

// failMessage is the first failed check's message, else the run's.
func failMessage(r Run) string {
	for _, c := range r.Checks {
		if !c.Pass {
			return c.Check + ": " + c.Message
		}
	}
	return r.Message
}

// String says whether the change is beyond chance, and by which test.
func (s Significance) String() string {
	verdict := "within chance"
	if s.Beyond {
		verdict = "BEYOND CHANCE"
	}
	switch s.Test {
	case "McNemar":
		return fmt.Sprintf("the difference is %s: McNemar's exact test on the %d tasks scored in both, %d passed only before and %d only now, p = %.3g (beyond chance below %.2f)",
			verdict, s.Pairs, s.OnlyOld, s.OnlyNew, s.P, Alpha)
	case "Fisher":
		return fmt.Sprintf("the difference is %s: Fisher's exact test of the two rates (the reports share no scored task), p = %.3g (beyond chance below %.2f)",
			verdict, s.P, Alpha)
	}
	return "no scored runs to test"
}
