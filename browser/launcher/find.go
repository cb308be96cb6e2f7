package launcher

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// ErrNotFound means no Chromium binary was found.
var ErrNotFound = errors.New("browser: Chromium not found: install it with `apt-get install chromium`, or pass --chrome or set CHROME_PATH to the browser binary")

// Find returns the browser binary to run: path if set, else $CHROME_PATH,
// else the first of chromium, chromium-browser, google-chrome and
// google-chrome-stable on PATH.
func Find(path string) (string, error) {
	if path == "" {
		path = os.Getenv("CHROME_PATH")
	}
	if path != "" {
		p, err := exec.LookPath(path)
		if err != nil {
			return "", fmt.Errorf("%w (%v)", ErrNotFound, err)
		}
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNotFound
}

// chromeFix is what to do about a binary that is not Chromium.
const chromeFix = "pass --chrome or set CHROME_PATH to a Chromium or Chrome binary (e.g. /usr/bin/chromium), or install it with `apt-get install chromium`"

// Check finds the binary Find would (path, else CHROME_PATH, else chromium
// on PATH) and asks it for its version, within ctx: a binary that is
// missing is ErrNotFound, one that does not say it is Chromium or Chrome a
// *ConfigError. A harness that starts many browsers checks once instead of
// failing every start.
func Check(ctx context.Context, path string) error {
	p, err := Find(path)
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
