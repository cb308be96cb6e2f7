package outline_test

import (
	"fmt"

	"github.com/webagent/webagent/internal/outline"
)

func ExampleResolve() {
	snap := `heading "Your cart" [level=1]
| Blue mug | $12.00 | Remove |
  button "Remove" [ref=e84]
| Red mug | $11.50 | Remove |
  button "Remove" [ref=e88]`
	ref, err := outline.Resolve(outline.Parse(snap), outline.Target{Role: "button", Name: "Remove", Scope: "Red mug"})
	fmt.Println(ref, err)
	// Output: e88 <nil>
}
