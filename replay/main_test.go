package replay_test

import (
	"os"
	"testing"

	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/testfixture/chrometest"
)

// chrome is the Chromium the tests share: each browser they need is a tab
// of it in a browser context of its own.
var chrome chrometest.Shared

// toolChrome is a second shared Chromium, started by the first test that
// needs it, in which every page may offer tools (--page-tools).
var toolChrome = chrometest.Shared{Options: browser.Options{PageTools: true}}

func TestMain(m *testing.M) { os.Exit(chrome.Run(m, toolChrome.Close)) }
