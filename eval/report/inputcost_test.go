package report

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

// The input's bill, worked by hand at $2 and $0.50 a million prompt
// tokens: a run of 10,000 prompt tokens, 6,000 of them a prefix of the
// previous request and 4,000 cached by the provider, costs $0.02 without
// a cache, $0.011 with the prefix cached (4,000 × $2 + 6,000 × $0.50) and
// $0.014 as billed (6,000 × $2 + 4,000 × $0.50); a run of a model without
// a price counts in the tokens only. Per task and in total.
func TestInputCost(t *testing.T) {
	t.Parallel()
	priced := contract.Usage{PromptTokens: 10_000, PrefixTokens: 6_000, CachedTokens: 4_000, TotalTokens: 10_500}
	in := NewInputCost(priced, 2, 0.5)
	if !near(in.Uncached, 0.02, 1e-12) || !near(in.PrefixCached, 0.011, 1e-12) || !near(in.Billed, 0.014, 1e-12) {
		t.Fatalf("input cost %+v", in)
	}
	if over := NewInputCost(contract.Usage{PromptTokens: 100, PrefixTokens: 400}, 2, 0.5); !near(over.PrefixCached, 100*0.5/1e6, 1e-15) {
		t.Errorf("a prefix estimated above the prompt: %+v", over)
	}
	r := &Report{Version: Version, Model: "m", Workers: 1, Runs: []Run{
		{ID: "a", Suite: "forms", Success: true, Code: "SUCCESS", Tokens: priced, Input: in},
		{ID: "b", Suite: "forms", Success: true, Code: "SUCCESS", Tokens: priced, Input: in},
		{ID: "c", Suite: "shop", Success: true, Code: "SUCCESS", Tokens: contract.Usage{PromptTokens: 500, PrefixTokens: 100, TotalTokens: 600}},
	}}
	s := r.Summarize()
	if s.Input == nil || !near(s.Input.Uncached, 0.04, 1e-12) || !near(s.Input.PrefixCached, 0.022, 1e-12) || !near(s.Input.Billed, 0.028, 1e-12) {
		t.Errorf("the summary's input cost %+v", s.Input)
	}
	md := r.Markdown()
	for _, w := range []string{
		"| forms | a | pass | SUCCESS | 0 | 0 ms | 10500 | tokens only | 10000 | 6000 (60%) | $0.0200 | $0.0110 | $0.0140 |",
		"| shop | c | pass | SUCCESS | 0 | 0 ms | 600 | tokens only | 500 | 100 (20%) | no price | no price | no price |",
		"| forms | 20000 | 12000 (60%) | 8000 (40%) | $0.0400 | $0.0220 | $0.0280 | 0 |",
		"| shop | 500 | 100 (20%) | 0 (0%) | no price | no price | no price | 1 |",
		"| **all** | 20500 | 12100 (59%) | 8000 (39%) | $0.0400 | $0.0220 | $0.0280 | 1 |",
	} {
		if !strings.Contains(md, w) {
			t.Errorf("the report lacks %q:\n%s", w, md)
		}
	}
	page, err := r.HTML(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		`<td class="num" data-v="6000">6000 of 10000</td><td class="num" data-v="0.02">$0.0200</td><td class="num" data-v="0.011">$0.0110</td>`,
		`<td class="num" data-v="100">100 of 500</td><td class="num" data-v="-1">no price</td><td class="num" data-v="-1">no price</td>`,
		`<td class="num">$0.0400</td><td class="num">$0.0220</td><td class="num">$0.0280</td>`,
	} {
		if !strings.Contains(string(page), w) {
			t.Errorf("the page lacks %s", w)
		}
	}
}
