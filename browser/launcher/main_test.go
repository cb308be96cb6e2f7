package launcher

import (
	"os"
	"testing"

	"github.com/webagent/webagent/testfixture/machinelock"
)

// TestMain shares the machine (machinelock): these tests start Chromium
// and time its exit, which no test loading the machine may run beside.
func TestMain(m *testing.M) {
	if os.Getenv(sweepChildEnv) != "" {
		os.Exit(sweepChild()) // TestSweepOnExit's program
	}
	_ = machinelock.Shared()
	os.Exit(m.Run())
}
