//go:build !bench

package snapbench

// Tokenizer names how tokens are counted: here an estimate, as the
// tokenizer's tables are linked only into the bench build (-tags bench).
const Tokenizer = "estimate (4 bytes a token; build with -tags bench for o200k_base)"

// counter returns the estimate: a token per 4 bytes, rounded up.
func counter() (func(string) int, error) {
	return func(s string) int { return (len(s) + 3) / 4 }, nil
}
