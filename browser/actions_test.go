package browser

import (
	"slices"
	"testing"

	"github.com/webagent/webagent/contract"
)

// TestActionTable checks that the browser performs every action the
// contract knows, and no other.
func TestActionTable(t *testing.T) {
	var names []string
	for n := range actions {
		names = append(names, n)
	}
	slices.Sort(names)
	if want := contract.ActionNames(); !slices.Equal(names, want) {
		t.Errorf("the browser's actions are %v; the contract's are %v", names, want)
	}
}
