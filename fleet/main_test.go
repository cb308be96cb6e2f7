package fleet

import (
	"os"
	"testing"

	"github.com/webagent/webagent/testfixture/machinelock"
)

// TestMain shares the machine (machinelock): the fleet's tests run
// Chromium and a Temporal server, which no test loading the machine may
// run beside.
func TestMain(m *testing.M) {
	_ = machinelock.Shared()
	os.Exit(m.Run())
}
