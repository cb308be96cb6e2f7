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
}

// Compare matches the runs of two reports by Run.Key. A time change counts
// when it is larger than 25% and than minDeltaMS.
func Compare(old, new *Report, minDeltaMS int64) *Diff {
	d := &Diff{OldRuns: len(old.Runs), NewRuns: len(new.Runs), OldPassed: old.Passed(), NewPassed: new.Passed()}
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
