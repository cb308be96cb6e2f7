package report

import (
	"math"
)

// The statistics behind an honest rate: a 95% Wilson interval for every
// rate, pass@k and pass^k over repeated runs, and exact tests of whether
// two reports differ beyond chance.

// z95 is the normal quantile of a two-sided 95% interval.
const z95 = 1.959963984540054

// Interval is a rate with its 95% Wilson score interval: Passed of N, Rate
// = Passed/N, the true rate between Low and High with 95% confidence.
type Interval struct {
	Passed int     `json:"passed"`
	N      int     `json:"n"`
	Rate   float64 `json:"rate"`
	Low    float64 `json:"low"`
	High   float64 `json:"high"`
}

// Wilson returns the rate of k successes in n trials with its 95% Wilson
// score interval: centre (k + z²/2)/(n + z²), half-width
// z/(n + z²)·√(k(n−k)/n + z²/4). Unlike the normal approximation it stays
// inside [0, 1] and is honest for small n and rates near 0 or 1. With
// n = 0 the rate is unknown: the interval is [0, 1].
func Wilson(k, n int) Interval {
	iv := Interval{Passed: k, N: n, Low: 0, High: 1}
	if n <= 0 {
		return iv
	}
	fk, fn, z2 := float64(k), float64(n), z95*z95
	iv.Rate = fk / fn
	centre := (fk + z2/2) / (fn + z2)
	half := z95 / (fn + z2) * math.Sqrt(fk*(fn-fk)/fn+z2/4)
	iv.Low, iv.High = max(0, centre-half), min(1, centre+half)
	return iv
}

// TaskTries is how many scored runs one task had (N) and how many of
// them succeeded (C), for pass@k and pass^k.
type TaskTries struct{ N, C int }

// PassAtK is the chance that at least one of k runs of a task succeeds,
// averaged over the tasks: the unbiased estimator 1 − C(n−c, k)/C(n, k) of
// each task's n runs with c successes (Chen et al., 2021). Tasks with
// fewer than k runs are left out; ok is false when none is left.
func PassAtK(tasks []TaskTries, k int) (v float64, ok bool) {
	return meanOver(tasks, k, func(t TaskTries) float64 { return 1 - choose(t.N-t.C, k)/choose(t.N, k) })
}

// PassHatK (pass^k) is the chance that all of k runs of a task succeed,
// averaged over the tasks: C(c, k)/C(n, k) of each task's n runs with c
// successes (τ-bench, Yao et al., 2024). It falls with k when a task
// succeeds only sometimes, which pass@k hides.
func PassHatK(tasks []TaskTries, k int) (v float64, ok bool) {
	return meanOver(tasks, k, func(t TaskTries) float64 { return choose(t.C, k) / choose(t.N, k) })
}

func meanOver(tasks []TaskTries, k int, f func(TaskTries) float64) (float64, bool) {
	if k < 1 {
		return 0, false
	}
	sum, n := 0.0, 0
	for _, t := range tasks {
		if t.N < k {
			continue
		}
		sum += f(t)
		n++
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

// choose is the binomial coefficient C(n, k) as a float; 0 when k > n or
// either is negative.
func choose(n, k int) float64 {
	if k < 0 || n < 0 || k > n {
		return 0
	}
	return math.Exp(lchoose(n, k))
}

func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// McNemar is the exact (binomial) McNemar test of paired runs, the same
// tasks in two reports: of the pairs that differ, b went from pass to
// fail and c from fail to pass. With no real difference each such pair
// goes either way with chance ½; the two-sided p-value is the chance of a
// split at least as uneven as b:c. Pairs that agree carry no information
// about the difference, whatever their number.
func McNemar(b, c int) float64 {
	n := b + c
	if n == 0 {
		return 1
	}
	lo := min(b, c)
	p := 0.0
	for i := 0; i <= lo; i++ {
		p += math.Exp(lchoose(n, i) - float64(n)*math.Ln2)
	}
	return min(1, 2*p)
}

// Fisher is the two-sided Fisher exact test of two independent samples:
// k1 successes of n1 against k2 of n2. The p-value sums the
// hypergeometric probabilities, given the margins, of every table no
// more likely than the one observed.
func Fisher(k1, n1, k2, n2 int) float64 {
	total, succ := n1+n2, k1+k2
	if n1 == 0 || n2 == 0 || succ == 0 || succ == total {
		return 1
	}
	prob := func(a int) float64 {
		return math.Exp(lchoose(n1, a) + lchoose(n2, succ-a) - lchoose(total, succ))
	}
	observed := prob(k1)
	p := 0.0
	for a := max(0, succ-n2); a <= min(n1, succ); a++ {
		if q := prob(a); q <= observed*(1+1e-7) {
			p += q
		}
	}
	return min(1, p)
}
