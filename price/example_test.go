package price_test

import (
	"fmt"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/price"
)

// Prices come from the shipped table, extended by a file of one's own;
// a model no table knows has no cost, only tokens.
func Example() {
	mine, err := price.Parse("my-prices.yaml", []byte(`
prices:
  - {model: llama3.1, input: 0, output: 0, source: "our own GPU"}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	table := price.Default().Merge(mine)
	usage := contract.Usage{PromptTokens: 120_000, CachedTokens: 80_000, CompletionTokens: 3_000}
	for _, model := range []string{"gpt-4.1-mini", "llama3.1", "some-new-model"} {
		if cost, ok := table.Cost(model, usage); ok {
			fmt.Printf("%s: $%.4f\n", model, cost)
		} else {
			fmt.Printf("%s: no price, %d tokens\n", model, usage.PromptTokens+usage.CompletionTokens)
		}
	}
	// Output:
	// gpt-4.1-mini: $0.0288
	// llama3.1: $0.0000
	// some-new-model: no price, 123000 tokens
}
