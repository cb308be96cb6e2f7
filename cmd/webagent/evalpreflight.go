package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/webagent/webagent/browser"
)

// checkLocalBrowser checks, when eval starts its own browsers, that the
// binary is Chromium: a wrong --chrome or CHROME_PATH is a usage error
// (exit 2), not a HARNESS_ERROR on every run.
func checkLocalBrowser(ctx context.Context, chrome string) error {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	err := browser.CheckChrome(cctx, chrome)
	if err != nil && ctx.Err() == nil && (isBrowserConfigError(err) || errors.Is(err, browser.ErrChromeNotFound)) {
		return usagef("%v", err)
	}
	return err
}

// checkRemoteBrowsers attaches once to each --cdp-url of eval, in a browser
// context of its own that is disposed of at once, so that a pool where no
// browser answers is a usage error (exit 2) instead of every run failing
// HARNESS_ERROR. With some browsers up, each that is not gets a warning and
// the runs go to the others.
func checkRemoteBrowsers(ctx context.Context, urls []string, log *slog.Logger, stderr io.Writer) error {
	var bad []error
	for _, u := range urls {
		lctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		b, err := browser.Launch(lctx, browser.Options{CDPURL: u, Isolated: true, Logger: log})
		cancel()
		if err == nil {
			_ = b.Close()
			continue
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		bad = append(bad, err)
	}
	switch {
	case len(bad) == 0:
		return nil
	case len(bad) == len(urls) && isBrowserConfigError(bad[0]):
		msg := bad[0].Error()
		if len(bad) > 1 {
			msg += fmt.Sprintf(" (and none of the other %d --cdp-url answers either)", len(bad)-1)
		}
		return usagef("%s", msg)
	}
	for _, err := range bad {
		fmt.Fprintf(stderr, "webagent: warning: %v; the runs go to the other browsers\n", err)
	}
	return nil
}
