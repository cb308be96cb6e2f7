package browser

import (
	"strings"
	"testing"
)

func TestCPUThrottleOutOfRange(t *testing.T) {
	for _, rate := range []float64{0.5, -1, MaxCPUThrottle + 1} {
		if _, err := Launch(tctx(t), Options{CPUThrottle: rate}); err == nil || !strings.Contains(err.Error(), "CPU throttle") {
			t.Errorf("Launch with CPUThrottle %g: err = %v, want a range error", rate, err)
		}
	}
}
