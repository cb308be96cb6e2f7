package cache_test

import (
	"os"
	"testing"

	"github.com/webagent/webagent/testfixture/chrometest"
)

// chrome is the Chromium the tests share: each browser they need is a tab
// of it in a browser context of its own.
var chrome chrometest.Shared

func TestMain(m *testing.M) { os.Exit(chrome.Run(m)) }
