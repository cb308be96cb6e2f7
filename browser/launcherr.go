package browser

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strings"

	"github.com/webagent/webagent/internal/neterr"
)

// ConfigError is a browser that could not be started or reached because of
// how it was configured: a Chromium binary that does not start, or a
// DevTools address (Options.CDPURL) where nothing answers or something
// other than a browser does. Retrying does not help; the configuration must
// change. Its message says what is wrong and how to fix it, without CDP
// jargon; Err keeps the underlying cause for logs.
type ConfigError struct {
	// Problem says what is wrong, e.g. "nothing answers at http://…".
	Problem string
	// Fix says what to do about it.
	Fix string
	// Err is the cause as the DevTools library reported it.
	Err error
}

func (e *ConfigError) Error() string { return "browser: " + e.Problem + "; " + e.Fix }

func (e *ConfigError) Unwrap() error { return e.Err }

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

// startError classifies a failure to start the Chromium binary at path: it
// exited, or never opened its DevTools endpoint. Chromium's first output
// lines, if any, are kept in the message. A start that ctx ended is not a
// configuration error.
func startError(ctx context.Context, path string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("browser: starting %s: %w", path, err)
	}
	problem := fmt.Sprintf("%s did not start as a Chromium browser", path)
	if out := chromeOutput(err); out != "" {
		problem += " (it printed: " + out + ")"
	}
	return &ConfigError{
		Problem: problem,
		Fix:     chromeFix,
		Err:     err,
	}
}

const chromeFix = "pass --chrome or set CHROME_PATH to a Chromium or Chrome binary (e.g. /usr/bin/chromium), or install it with `apt-get install chromium`"

// chromeOutput is what the browser printed before it failed, as chromedp
// reports it after "chrome failed to start:", on one line and short.
func chromeOutput(err error) string {
	s := err.Error()
	for _, marker := range []string{"chrome failed to start:", "chrome printed:"} {
		if _, after, ok := strings.Cut(s, marker); ok {
			out := strings.Join(strings.Fields(after), " ")
			if r := []rune(out); len(r) > 200 {
				out = string(r[:199]) + "…"
			}
			return out
		}
	}
	return ""
}

// CheckChrome finds the Chromium binary Launch would start (path, else
// CHROME_PATH, else chromium on PATH) and asks it for its version, within
// ctx: a binary that is missing is ErrChromeNotFound, one that does not say
// it is Chromium or Chrome a *ConfigError. A harness that starts many
// browsers checks once instead of failing every run.
func CheckChrome(ctx context.Context, path string) error {
	p, err := findChrome(path)
	if err != nil {
		return err
	}
	out, err := exec.CommandContext(ctx, p, "--version").Output()
	if ctx.Err() != nil {
		return fmt.Errorf("browser: asking %s for its version: %w", p, ctx.Err())
	}
	v := strings.TrimSpace(string(out))
	if err == nil && (strings.Contains(v, "Chromium") || strings.Contains(v, "Chrome")) {
		return nil
	}
	problem := fmt.Sprintf("%s is not a Chromium browser (`%s --version` printed %q)", p, p, v)
	if err != nil {
		problem = fmt.Sprintf("%s is not a Chromium browser (`%s --version` failed: %v)", p, p, err)
	}
	return &ConfigError{Problem: problem, Fix: chromeFix, Err: err}
}
