package report

import (
	"fmt"
	"strings"

	"github.com/webagent/webagent/contract"
)

// InputCost is what prompt tokens cost at their model's input and cached
// input prices, in US dollars, three ways, so that a change to the
// conversation's shape is judged by its bill and not by raw tokens:
// Uncached is every prompt token at the input price (no cache at all);
// PrefixCached the tokens that repeat the start of the run's previous
// request (contract.Usage.PrefixTokens: what a provider's prefix cache
// would serve) at the cached price and the rest at the input price;
// Billed the tokens the provider said it served from its cache
// (CachedTokens) at the cached price and the rest at the input price, as
// it bills them.
type InputCost struct {
	Uncached     float64 `json:"uncached_usd"`
	PrefixCached float64 `json:"prefix_cached_usd"`
	Billed       float64 `json:"billed_usd"`
}

// NewInputCost is the input cost of u at input and cached, US dollars per
// million tokens.
func NewInputCost(u contract.Usage, input, cached float64) *InputCost {
	at := func(served int) float64 {
		served = min(max(served, 0), u.PromptTokens)
		return (float64(u.PromptTokens-served)*input + float64(served)*cached) / 1e6
	}
	return &InputCost{Uncached: at(0), PrefixCached: at(u.PrefixTokens), Billed: at(u.CachedTokens)}
}

// add adds c to the sum s, which it makes when nil.
func (c *InputCost) add(s **InputCost) {
	if c == nil {
		return
	}
	if *s == nil {
		*s = &InputCost{}
	}
	(*s).Uncached += c.Uncached
	(*s).PrefixCached += c.PrefixCached
	(*s).Billed += c.Billed
}

// inputCells are a table's three input cost cells, "no price" each when
// c is nil.
func inputCells(c *InputCost) string {
	if c == nil {
		return "no price | no price | no price"
	}
	return fmt.Sprintf("%s | %s | %s", fmtMoney(c.Uncached), fmtMoney(c.PrefixCached), fmtMoney(c.Billed))
}

// mdInput writes the prompt tokens and what they cost at the model's
// prices by suite and in all: the share a prefix cache would serve, the
// share the provider served, and the bill without a cache, with the
// prefix cached and as the provider billed it. Runs whose model has no
// price count in the tokens, not in the money.
func (r *Report) mdInput(b *strings.Builder) {
	b.WriteString("\n## Input tokens as billed\n\n")
	b.WriteString("A prefix cache serves the start of each request that repeats the run's previous one; the provider's cache what it said it served. " +
		"The money is at the model's input and cached input prices (`--prices`), over the runs whose model has one.\n\n")
	b.WriteString("| suite | prompt tokens | a prefix of the previous request | cached by the provider | input, no cache | input, prefix cached | input, as billed | runs without a price |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range r.SuiteStats() {
		name := mdEscape(s.Suite)
		if s.Suite == "all" {
			name = "**all**"
		}
		fmt.Fprintf(b, "| %s | %d | %s | %s | %s | %d |\n", name, s.Prompt, share(s.Prefix, s.Prompt), share(s.Cached, s.Prompt),
			inputCells(s.Input), s.Unpriced)
	}
}
