package cache_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/webagent/webagent/internal/testfixture/chrometest"
)

// chrome is the Chromium the tests share: each browser they need is a tab
// of it in a browser context of its own.
var chrome chrometest.Shared

func TestMain(m *testing.M) {
	code := m.Run()
	if err := chrome.Close(); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		code = 1
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			os.Stderr.WriteString("goroutine leak: " + err.Error() + "\n")
			code = 1
		}
	}
	os.Exit(code)
}
