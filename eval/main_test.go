package eval

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/webagent/webagent/testfixture/chrometest"
	"github.com/webagent/webagent/testfixture/machinelock"
)

// chrome is a Chromium the tests share where they need a page (a tab each,
// in a browser context of its own); the harness's runs start their own.
var chrome chrometest.Shared

// testTmp is the private TMPDIR of the tests: every Chromium profile is
// made in it, so that a process or profile left behind can be found.
var testTmp string

func TestMain(m *testing.M) {
	if os.Getenv(busyEnv) != "" {
		busyLoop() // a busy process of TestBuiltinSuiteUnderLoad
	}
	_ = machinelock.Shared()
	dir, err := os.MkdirTemp("", "webagent-eval-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testTmp = dir
	os.Setenv("TMPDIR", dir)
	code := m.Run()
	if err := chrome.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	if left := processesUsing(dir); len(left) > 0 {
		fmt.Fprintln(os.Stderr, "processes left behind:", strings.Join(left, "\n"))
		code = 1
	}
	for _, pat := range []string{"webagent-profile-*", "webagent-tmp-*", "org.chromium.Chromium.*"} {
		if left, _ := filepath.Glob(filepath.Join(dir, pat)); len(left) > 0 {
			fmt.Fprintln(os.Stderr, "browser profiles or temporary folders left behind:", left)
			code = 1
		}
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goroutine leak:", err)
			code = 1
		}
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// processesUsing lists the processes whose command line mentions dir.
func processesUsing(dir string) []string {
	var out []string
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range procs {
		b, err := os.ReadFile(f)
		if err == nil && bytes.Contains(b, []byte(dir)) {
			out = append(out, f+": "+string(bytes.ReplaceAll(b, []byte{0}, []byte{' '})))
		}
	}
	return out
}
