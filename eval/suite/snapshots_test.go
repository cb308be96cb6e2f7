package suite

import "os"

// The built-in sites' snapshots that package outline's tests use.
var shopSnapshot, cartSnapshot = readSnapshot("shop.txt"), readSnapshot("cart.txt")

func readSnapshot(name string) string {
	b, err := os.ReadFile("../../internal/outline/testdata/" + name)
	if err != nil {
		panic(err)
	}
	return string(b)
}
