package report

import (
	"math"
	"sort"
)

// SuiteStats summarizes one suite's runs (or all runs, Suite "all").
type SuiteStats struct {
	Suite  string
	Runs   int
	Passed int
	// Scored are the runs that count in the rate: all but the dataset
	// runs without a verdict (Unscored).
	Scored, Unscored int
	// Rate is Passed/Scored, 0 to 1; Interval its 95% Wilson interval.
	Rate             float64
	Interval         Interval
	MedianIterations float64
	// Tokens is the total over the runs; TokensPerRun the mean.
	Tokens       int
	TokensPerRun float64
	// Prompt, Prefix and Cached are the prompt tokens over the runs: all
	// of them, those that repeated the start of the run's previous request
	// (what a provider's cache could serve), and those the provider said
	// it served from its cache.
	Prompt, Prefix, Cached int
	// Input is the sum of the runs' input costs (Run.Input), nil when no
	// run had a price; Unpriced counts the runs with prompt tokens but no
	// price.
	Input    *InputCost
	Unpriced int
	// MedianMS and MeanMS are the time per task.
	MedianMS float64
	MeanMS   float64
}

// Latency is the p50 and p95 of one phase of an iteration, in ms.
type Latency struct {
	Phase    string
	N        int
	P50, P95 float64
}

// CodeCount is how many runs ended with a code.
type CodeCount struct {
	Code  string
	Count int
}

// SuiteStats returns the stats of every suite, then of all runs.
func (r *Report) SuiteStats() []SuiteStats {
	var out []SuiteStats
	for _, s := range r.Suites() {
		out = append(out, stats(s, r.runsOf(s)))
	}
	return append(out, stats("all", r.Runs))
}

func (r *Report) runsOf(suite string) []Run {
	var runs []Run
	for _, run := range r.Runs {
		if run.Suite == suite {
			runs = append(runs, run)
		}
	}
	return runs
}

func stats(name string, runs []Run) SuiteStats {
	s := SuiteStats{Suite: name, Runs: len(runs)}
	var iters, durs []float64
	var total float64
	for _, r := range runs {
		if r.Success {
			s.Passed++
		}
		if r.Scored() {
			s.Scored++
		} else {
			s.Unscored++
		}
		s.Tokens += r.Tokens.TotalTokens
		s.Prompt += r.Tokens.PromptTokens
		s.Prefix += r.Tokens.PrefixTokens
		s.Cached += r.Tokens.CachedTokens
		r.Input.add(&s.Input)
		if r.Input == nil && r.Tokens.PromptTokens > 0 {
			s.Unpriced++
		}
		iters = append(iters, float64(r.Iterations))
		durs = append(durs, float64(r.DurationMS))
		total += float64(r.DurationMS)
	}
	s.Interval = Wilson(s.Passed, s.Scored)
	s.Rate = s.Interval.Rate
	if len(runs) > 0 {
		s.TokensPerRun = float64(s.Tokens) / float64(len(runs))
		s.MeanMS = total / float64(len(runs))
	}
	s.MedianIterations = Percentile(iters, 50)
	s.MedianMS = Percentile(durs, 50)
	return s
}

// Codes counts the runs by code, most frequent first.
func (r *Report) Codes() []CodeCount {
	m := map[string]int{}
	for _, run := range r.Runs {
		m[run.Code]++
	}
	var out []CodeCount
	for c, n := range m {
		out = append(out, CodeCount{c, n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Code < out[j].Code
	})
	return out
}

// Latencies returns the p50 and p95 of the snapshot, model and action time
// of every iteration of every run. Iterations that did not reach a phase
// (e.g. a timed-out model call leaves no action time) still count with 0.
func (r *Report) Latencies() []Latency {
	var snap, model, act []float64
	for _, run := range r.Runs {
		for _, s := range run.Steps {
			snap = append(snap, float64(s.SnapshotMS))
			model = append(model, float64(s.LLMMS))
			act = append(act, float64(s.ActionMS))
		}
	}
	mk := func(phase string, v []float64) Latency {
		return Latency{Phase: phase, N: len(v), P50: Percentile(v, 50), P95: Percentile(v, 95)}
	}
	return []Latency{mk("snapshot", snap), mk("model", model), mk("action", act)}
}

// Percentile returns the p-th percentile of v (nearest rank with linear
// interpolation); 0 for no values.
func Percentile(v []float64, p float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s) == 1 {
		return s[0]
	}
	pos := p / 100 * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := int(math.Ceil(pos))
	frac := pos - float64(lo)
	return s[lo] + (s[hi]-s[lo])*frac
}
