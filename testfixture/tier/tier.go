// Package tier sorts the tests into the two tiers CONTRIBUTING.md
// describes. The whole suite (scripts/test, the README's test command)
// runs every test; the everyday tier, go test -short ./..., runs every
// package's fast tests and one real-browser run per door (the CLI's run,
// the Go package, webagent browser, MCP, eval), and skips the tests that
// call Slow.
//
// The rule: a test that takes more than 2 s or starts Chromium more than
// once calls Slow first, unless it is its door's one run under -short
// (such a test says so in its comment). A new package follows it as the
// others do; go test -short ./... must stay within the time CONTRIBUTING
// gives.
package tier

import "testing"

// Slow skips t under go test -short. Call it first in the test, before
// t.Parallel.
func Slow(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: slow (over 2 s, or Chromium more than once); the whole suite runs it")
	}
}
