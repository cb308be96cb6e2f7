package browser

import (
	"context"
	"errors"
	"fmt"
	"net"

	"github.com/webagent/webagent/browser/launcher"
	"github.com/webagent/webagent/internal/neterr"
)

// ConfigError is a browser that could not be started or reached because of
// how it was configured: a Chromium binary that does not start, a profile
// folder in use, or a DevTools address (Options.CDPURL) where nothing
// answers or something other than a browser does. Retrying does not help;
// the configuration must change. Its message says what is wrong and how to
// fix it; Err keeps the underlying cause for logs.
type ConfigError = launcher.ConfigError

// attachError classifies a failure to attach to the browser at cdpURL. A
// start that ctx ended is not a configuration error.
func attachError(ctx context.Context, cdpURL string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("browser: attaching to %s: %w", cdpURL, err)
	}
	const fix = "start Chromium with --remote-debugging-port (e.g. chromium --headless --remote-debugging-port=9222) and pass its address, e.g. --cdp-url http://127.0.0.1:9222"
	var op *net.OpError
	var dns *net.DNSError
	if (errors.As(err, &op) && op.Op == "dial") || errors.As(err, &dns) {
		return &ConfigError{Problem: fmt.Sprintf("nothing answers at %s (%s)", cdpURL, neterr.Reason(err)), Fix: fix, Err: err}
	}
	return &ConfigError{Problem: fmt.Sprintf("%s answers, but it is not a Chromium DevTools endpoint", cdpURL), Fix: fix, Err: err}
}

// CheckChrome finds the Chromium binary Launch would start (path, else
// CHROME_PATH, else chromium on PATH) and asks it for its version, within
// ctx: a binary that is missing is ErrChromeNotFound, one that does not say
// it is Chromium or Chrome a *ConfigError. A harness that starts many
// browsers checks once instead of failing every run.
func CheckChrome(ctx context.Context, path string) error { return launcher.Check(ctx, path) }
