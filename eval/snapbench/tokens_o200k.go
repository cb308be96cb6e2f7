//go:build bench

package snapbench

import (
	"fmt"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// Tokenizer names how tokens are counted.
const Tokenizer = "o200k_base"

// counter returns o200k_base's counter, loaded from the copy embedded in
// the binary (no network).
func counter() (func(string) int, error) {
	tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
	enc, err := tiktoken.GetEncoding(tiktoken.MODEL_O200K_BASE)
	if err != nil {
		return nil, fmt.Errorf("snapbench: loading o200k_base: %w", err)
	}
	return func(s string) int { return len(enc.Encode(s, nil, nil)) }, nil
}
