// Package chrometest shares one headless Chromium among the tests of a
// package, as chromedp's own tests do (one allocator in TestMain, a tab
// per test): the browser starts at the first test that needs it, and each
// test drives a Browser of its own in it, a tab in a browser context of
// its own (own cookies, storage and renderer processes). Tests doing so
// may run in parallel.
//
// Browser gives a test a fresh browser context, closed when the test
// ends. Tab gives it one of a pool, handed from test to test as a
// package's one shared tab was, which spares a context's set-up (a few
// hundred milliseconds of the browser's time) per test.
//
// A test about the browser process itself (its launch, crash, kill or
// exit, what it leaves behind) must launch its own Chromium instead.
//
// TestMain runs the tests with Run, which closes the shared browser after
// them and then looks for leaked goroutines:
//
//	var chrome chrometest.Shared
//
//	func TestMain(m *testing.M) { os.Exit(chrome.Run(m)) }
package chrometest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/testfixture/machinelock"
)

// startTimeout bounds starting the shared Chromium and attaching a tab to
// it, on a busy machine.
const startTimeout = 90 * time.Second

// Shared is a Chromium shared by the tests of a package. The zero value
// is ready: the browser starts on first use.
type Shared struct {
	// Options are those of the shared browser (browser.StartServer uses
	// ChromePath, Headful, Width and Height, UserAgent, PageTools).
	Options browser.Options
	// SkipWithoutChrome skips, rather than fails, a test that needs the
	// browser where no Chromium is found (browser.ErrChromeNotFound).
	SkipWithoutChrome bool

	once sync.Once
	mu   sync.Mutex
	srv  *browser.Server
	err  error
	idle []*browser.Browser // Tab's browsers between tests
}

// URL is the shared browser's DevTools address; it starts the browser the
// first time and fails t if it cannot.
func (s *Shared) URL(t testing.TB) string {
	t.Helper()
	url, err := s.start()
	if err != nil {
		s.fail(t, err)
	}
	return url
}

// fail ends t for err: a skip when no Chromium is found and
// SkipWithoutChrome is set, else a failure.
func (s *Shared) fail(t testing.TB, err error) {
	t.Helper()
	if s.SkipWithoutChrome && errors.Is(err, browser.ErrChromeNotFound) {
		t.Skip(err)
	}
	t.Fatal(err)
}

// start starts the shared browser the first time and returns its address.
func (s *Shared) start() (string, error) {
	s.once.Do(func() {
		// The binary shares the machine from its first browser on
		// (machinelock): no test that loads it runs meanwhile.
		_ = machinelock.Shared()
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		defer cancel()
		srv, err := browser.StartServer(ctx, s.Options)
		s.mu.Lock()
		defer s.mu.Unlock()
		if err != nil {
			s.err = fmt.Errorf("starting the shared chromium: %w", err)
			return
		}
		s.srv = srv
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return "", s.err
	}
	return s.srv.URL, nil
}

// Browser attaches a Browser to the shared Chromium: a tab in a browser
// context of its own, set up with opts (its CDPURL and Isolated are set
// here), and closed when the test ends.
func (s *Shared) Browser(t testing.TB, opts browser.Options) *browser.Browser {
	t.Helper()
	b, err := s.Attach(opts)
	if err != nil {
		s.fail(t, err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("closing the test's tab: %v", err)
		}
	})
	return b
}

// Tab is a Browser of the shared Chromium with the default options for the
// length of t, as cheap as a package's one shared tab: one of a pool, each
// in a browser context of its own, used by one test at a time and handed
// to the next test when t ends, as that tab was (what a test left, its
// cookies or a navigation policy, may meet the next one). A failed test's
// Browser is closed instead. Tests that need a fresh browser, or other
// options, use Browser.
func (s *Shared) Tab(t testing.TB) *browser.Browser {
	t.Helper()
	s.mu.Lock()
	var b *browser.Browser
	if n := len(s.idle); n > 0 {
		b, s.idle = s.idle[n-1], s.idle[:n-1]
	}
	s.mu.Unlock()
	if b == nil {
		var err error
		if b, err = s.Attach(browser.Options{}); err != nil {
			s.fail(t, err)
		}
	}
	t.Cleanup(func() {
		if t.Failed() {
			_ = b.Close()
			return
		}
		s.mu.Lock()
		s.idle = append(s.idle, b)
		s.mu.Unlock()
	})
	return b
}

// Attach is Browser for code without a testing.TB (examples, TestMain):
// the caller closes the Browser.
func (s *Shared) Attach(opts browser.Options) (*browser.Browser, error) {
	url, err := s.start()
	if err != nil {
		return nil, err
	}
	opts.CDPURL, opts.Isolated = url, true
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	b, err := browser.Launch(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("attaching a tab to the shared chromium: %w", err)
	}
	return b, nil
}

// PID is the shared browser's process id, 0 if it has not started.
func (s *Shared) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv == nil {
		return 0
	}
	return s.srv.PID()
}

// Close kills the shared Chromium if it was started and waits for it to
// exit, its profile removed. Call it at the end of TestMain.
func (s *Shared) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, b := range s.idle {
		if err := b.Close(); err != nil {
			errs = append(errs, fmt.Errorf("closing a tab of the shared chromium: %w", err))
		}
	}
	s.idle = nil
	if s.srv == nil {
		return errors.Join(errs...)
	}
	if err := s.srv.Close(); err != nil {
		errs = append(errs, fmt.Errorf("closing the shared chromium: %w", err))
	}
	return errors.Join(errs...)
}

// Run runs the package's tests (m.Run), then each of closers (a browser a
// TestMain attached for its examples), closes the shared Chromium and,
// when all of that went well, fails the run on goroutines left running.
// It returns the code for os.Exit.
func (s *Shared) Run(m *testing.M, closers ...func() error) int {
	code := m.Run()
	for _, c := range append(closers, s.Close) {
		if err := c(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goroutine leak:", err)
			code = 1
		}
	}
	return code
}
