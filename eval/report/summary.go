package report

import (
	"fmt"
	"sort"
)

// Summary is what a report's runs add up to, for machines (report.json)
// and people (report.md, report.html): every rate over the scored runs
// with its 95% Wilson interval, overall and by suite, site and level;
// the runs left unscored, apart; pass@k and pass^k when tasks were run
// several times; the judge's agreement with people where the tasks carry
// their verdicts; and the money.
type Summary struct {
	// Rate is over the scored runs; Unscored were left out of it.
	Rate     Interval `json:"rate"`
	Unscored int      `json:"unscored"`
	// BySuite, BySite and ByLevel split the runs; BySite and ByLevel only
	// when runs name a site or a level (datasets).
	BySuite []Group `json:"by_suite"`
	BySite  []Group `json:"by_site,omitempty"`
	ByLevel []Group `json:"by_level,omitempty"`
	// PassK is pass@k and pass^k for k from 1 to the number of tries,
	// when tasks were run more than once (--repeat).
	PassK []PassK `json:"pass_k,omitempty"`
	// Agreement compares the judge with people's verdicts, when some
	// scored runs carry one.
	Agreement *Agreement `json:"agreement,omitempty"`
	// CostUSD is the agent's cost over the runs whose model has a price,
	// JudgeCostUSD the judge's; UnpricedRuns are runs whose model (or
	// judge) has none, whose tokens are counted but not their money.
	CostUSD      float64 `json:"cost_usd"`
	JudgeCostUSD float64 `json:"judge_cost_usd"`
	UnpricedRuns int     `json:"unpriced_runs"`
	// Tokens are the agent's, over all runs; PromptTokens their prompt's,
	// PrefixTokens those a provider's cache could have served (the start
	// of each request that repeats the run's previous one), CachedTokens
	// those the provider reported served from its cache.
	Tokens       int `json:"tokens"`
	PromptTokens int `json:"prompt_tokens"`
	PrefixTokens int `json:"prefix_tokens"`
	CachedTokens int `json:"cached_tokens"`
	// Input is what the prompt tokens cost at the model's prices (the
	// sum of Run.Input), over the runs whose model has one; nil when none
	// has.
	Input *InputCost `json:"input_cost,omitempty"`
	// MedianSteps and MedianMS are per run.
	MedianSteps float64 `json:"median_steps"`
	MedianMS    float64 `json:"median_ms"`
	// MeanScore is the mean of the rubric tasks' scores (0 to 100), when
	// there are some and every one was scored; ScoreWithheld says why it
	// is not given when one was not.
	MeanScore     *float64 `json:"mean_score,omitempty"`
	ScoreWithheld string   `json:"score_withheld,omitempty"`
}

// Group is the runs of one suite, site or level.
type Group struct {
	Name     string   `json:"name"`
	Runs     int      `json:"runs"`
	Rate     Interval `json:"rate"`
	Unscored int      `json:"unscored"`
	// CostUSD is the known cost of its runs, the judge's included.
	CostUSD     float64 `json:"cost_usd"`
	MedianSteps float64 `json:"median_steps"`
	MedianMS    float64 `json:"median_ms"`
}

// PassK is the chance that at least one (At) and that all (Hat) of k
// tries of a task succeed, over Tasks tasks with at least k scored tries.
type PassK struct {
	K     int     `json:"k"`
	At    float64 `json:"pass_at_k"`
	Hat   float64 `json:"pass_hat_k"`
	Tasks int     `json:"tasks"`
}

// Agreement is how the judge's verdicts compare with people's, over the
// N scored runs that carry a person's verdict; "positive" is success.
type Agreement struct {
	N  int `json:"n"`
	TP int `json:"tp"` // the judge and the person say success
	FP int `json:"fp"` // the judge says success, the person failure
	FN int `json:"fn"` // the judge says failure, the person success
	TN int `json:"tn"` // both say failure
	// Accuracy is (TP+TN)/N; Precision TP/(TP+FP), the share of the
	// judge's successes people agree with; Recall TP/(TP+FN), the share of
	// people's successes the judge found. Nil when undefined (nothing to
	// divide by).
	Accuracy  *float64 `json:"accuracy,omitempty"`
	Precision *float64 `json:"precision,omitempty"`
	Recall    *float64 `json:"recall,omitempty"`
}

// Summarize computes the summary of the report's runs.
func (r *Report) Summarize() *Summary {
	s := &Summary{}
	all := group("all", r.Runs)
	s.Rate, s.Unscored, s.MedianSteps, s.MedianMS = all.Rate, all.Unscored, all.MedianSteps, all.MedianMS
	s.BySuite = groupsBy(r.Runs, func(run Run) string { return run.Suite })
	if hasAny(r.Runs, func(run Run) string { return run.Site }) {
		s.BySite = groupsBy(r.Runs, func(run Run) string { return run.Site })
	}
	if hasAny(r.Runs, func(run Run) string { return run.Level }) {
		s.ByLevel = groupsBy(r.Runs, func(run Run) string { return run.Level })
	}
	s.PassK = passK(r.Runs)
	s.Agreement = agreement(r.Runs)
	s.MeanScore, s.ScoreWithheld = meanScore(r.Runs)
	for _, run := range r.Runs {
		s.Tokens += run.Tokens.TotalTokens
		s.PromptTokens += run.Tokens.PromptTokens
		s.PrefixTokens += run.Tokens.PrefixTokens
		s.CachedTokens += run.Tokens.CachedTokens
		run.Input.add(&s.Input)
		if run.CostUSD != nil {
			s.CostUSD += *run.CostUSD
		}
		if run.Judge != nil && run.Judge.CostUSD != nil {
			s.JudgeCostUSD += *run.Judge.CostUSD
		}
		if _, unknown := run.Spent(); unknown {
			s.UnpricedRuns++
		}
	}
	return s
}

func hasAny(runs []Run, key func(Run) string) bool {
	for _, run := range runs {
		if key(run) != "" {
			return true
		}
	}
	return false
}

// groupsBy groups the runs by key, sorted by name ("" last, as "none").
func groupsBy(runs []Run, key func(Run) string) []Group {
	by := map[string][]Run{}
	var names []string
	for _, run := range runs {
		k := key(run)
		if _, ok := by[k]; !ok {
			names = append(names, k)
		}
		by[k] = append(by[k], run)
	}
	sort.Slice(names, func(i, j int) bool {
		if (names[i] == "") != (names[j] == "") {
			return names[j] == ""
		}
		return names[i] < names[j]
	})
	out := make([]Group, 0, len(names))
	for _, n := range names {
		label := n
		if label == "" {
			label = "(none)"
		}
		out = append(out, group(label, by[n]))
	}
	return out
}

func group(name string, runs []Run) Group {
	g := Group{Name: name, Runs: len(runs)}
	passed, scored := 0, 0
	var steps, ms []float64
	for _, run := range runs {
		usd, _ := run.Spent()
		g.CostUSD += usd
		steps = append(steps, float64(run.Iterations))
		ms = append(ms, float64(run.DurationMS))
		if !run.Scored() {
			g.Unscored++
			continue
		}
		scored++
		if run.Success {
			passed++
		}
	}
	g.Rate = Wilson(passed, scored)
	g.MedianSteps, g.MedianMS = Percentile(steps, 50), Percentile(ms, 50)
	return g
}

// passK computes pass@k and pass^k for each k up to the most tries of a
// task, when some task was tried more than once.
func passK(runs []Run) []PassK {
	tries := map[string]*TaskTries{}
	var order []string
	maxTries := 0
	for _, run := range runs {
		if run.Repeat == 0 || !run.Scored() {
			continue
		}
		k := run.TaskKey()
		t, ok := tries[k]
		if !ok {
			t = &TaskTries{}
			tries[k] = t
			order = append(order, k)
		}
		t.N++
		if run.Success {
			t.C++
		}
		maxTries = max(maxTries, t.N)
	}
	if maxTries < 2 {
		return nil
	}
	list := make([]TaskTries, 0, len(order))
	for _, k := range order {
		list = append(list, *tries[k])
	}
	var out []PassK
	for k := 1; k <= maxTries; k++ {
		at, ok := PassAtK(list, k)
		hat, _ := PassHatK(list, k)
		if !ok {
			continue
		}
		n := 0
		for _, t := range list {
			if t.N >= k {
				n++
			}
		}
		out = append(out, PassK{K: k, At: at, Hat: hat, Tasks: n})
	}
	return out
}

// agreement compares the judge's verdicts with people's.
func agreement(runs []Run) *Agreement {
	a := &Agreement{}
	for _, run := range runs {
		if run.HumanLabel == nil || run.Kind != KindDataset || !run.Scored() {
			continue
		}
		a.N++
		judged, human := run.Judge.Outcome == "success", *run.HumanLabel
		switch {
		case judged && human:
			a.TP++
		case judged && !human:
			a.FP++
		case !judged && human:
			a.FN++
		default:
			a.TN++
		}
	}
	if a.N == 0 {
		return nil
	}
	a.Accuracy = ratio(a.TP+a.TN, a.N)
	a.Precision = ratio(a.TP, a.TP+a.FP)
	a.Recall = ratio(a.TP, a.TP+a.FN)
	return a
}

func ratio(a, b int) *float64 {
	if b == 0 {
		return nil
	}
	v := float64(a) / float64(b)
	return &v
}

// meanScore is the mean score of the rubric runs, withheld (with why)
// when any of them is unscored.
func meanScore(runs []Run) (*float64, string) {
	var sum float64
	n, unscored := 0, 0
	for _, run := range runs {
		if run.Rubric == nil {
			continue
		}
		if run.Score == nil {
			unscored++
			continue
		}
		sum += *run.Score
		n++
	}
	switch {
	case unscored > 0:
		return nil, fmt.Sprintf("%d of %d rubric tasks are unscored (a judge failure or an infrastructure error): no mean is given", unscored, n+unscored)
	case n == 0:
		return nil, ""
	}
	m := sum / float64(n)
	return &m, ""
}
