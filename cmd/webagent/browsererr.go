package main

import (
	"errors"

	"github.com/webagent/webagent/browser"
)

// isBrowserConfigError reports whether the browser could not start because
// of its configuration (no Chromium, a binary that is not one, a --cdp-url
// where no browser answers): bad usage, exit status 2, not a failed task.
func isBrowserConfigError(err error) bool {
	var ce *browser.ConfigError
	return errors.Is(err, browser.ErrChromeNotFound) || errors.As(err, &ce)
}
