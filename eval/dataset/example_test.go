package dataset_test

import (
	"fmt"

	"github.com/webagent/webagent/eval/dataset"
)

// Read a set in its published format, keep some levels, and sample it
// reproducibly.
func Example() {
	tasks, err := dataset.Load(dataset.OnlineMind2Web, "testdata/online-mind2web.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	tasks, err = dataset.Select(tasks, dataset.Filter{Levels: []string{"easy", "medium"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range dataset.Sample(tasks, 2, 42) {
		fmt.Printf("%s on %s (%s): %s\n", t.ID, t.Site, t.Level, t.Instruction)
	}
	// Output:
	// d4e5f6 on library.example (easy): Show the opening hours of the library.
	// g7h8i9 on shop.example (medium): Add a blue mug to the cart.
}
