package routine_test

import (
	"os"
	"testing"

	"github.com/webagent/webagent/testfixture/chrometest"
)

// chrome is the Chromium the tests share: a tab each.
var chrome chrometest.Shared

func TestMain(m *testing.M) { os.Exit(chrome.Run(m)) }
