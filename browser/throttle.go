package browser

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
)

// CPU throttling reproduces a slow or busy machine on a fast one: every page
// and frame target of the Browser runs its scripts, style and layout N
// times slower (CDP Emulation.setCPUThrottlingRate). Tabs the page opens and
// cross-origin frames, which are targets of their own, are throttled as they
// are attached.

// MaxCPUThrottle is the highest Options.CPUThrottle accepted.
const MaxCPUThrottle = 50

// checkThrottle validates Options.CPUThrottle.
func checkThrottle(rate float64) error {
	if rate != 0 && (rate < 1 || rate > MaxCPUThrottle || rate != rate) {
		return fmt.Errorf("browser: CPU throttle %g is out of range: use 1 (none) to %d, e.g. 6 for a busy machine", rate, MaxCPUThrottle)
	}
	return nil
}

// throttle applies the Browser's CPU throttling to one target.
func (b *Browser) throttle(ctx context.Context, t cdp.Session) error {
	if b.opts.CPUThrottle <= 1 {
		return nil
	}
	if _, err := cdp.Call(ctx, t, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: b.opts.CPUThrottle}); err != nil {
		return fmt.Errorf("throttling the CPU: %w", err)
	}
	return nil
}
