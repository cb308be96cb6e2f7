package browser

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/webagent/webagent/browser/launcher"
	"github.com/webagent/webagent/contract"
)

// launch starts a browser of the test's own, closed when the test ends.
func launch(t *testing.T, opts Options) *Browser {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := Launch(ctx, opts)
	if err != nil {
		t.Fatalf("launch: %v", err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
		if pids := launcher.ProcessesUsing(b.sess.profile()); b.sess.profile() != "" && len(pids) > 0 {
			t.Errorf("processes left after Close: %v", pids)
		}
	})
	return b
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", limit, what)
		}
		<-tick.C
	}
}

func TestLaunchClose(t *testing.T) {
	tmp := shortTempDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := Launch(ctx, Options{Width: 800, Height: 600})
	if err != nil {
		t.Fatal(err)
	}
	dir := b.sess.profile()
	if !strings.HasPrefix(filepath.Base(dir), launcher.ProfilePrefix) || filepath.Dir(dir) != filepath.Clean(os.TempDir()) {
		t.Errorf("profile dir %q", dir)
	}
	if len(launcher.ProcessesUsing(dir)) == 0 {
		t.Errorf("no chromium process uses %s", dir)
	}
	s := open(t, b, servePage(t, `<title>Size</title><p id=p></p><script>document.getElementById('p').textContent = innerWidth + 'x' + innerHeight</script>`))
	wantLine(t, s, "800x600")

	if err := b.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("profile dir after Close: %v", err)
	}
	if pids := launcher.ProcessesUsing(dir); len(pids) > 0 {
		t.Errorf("chromium processes left after Close: %v", pids)
	}
	// Nothing of Chromium's own is left in the temporary folder either.
	wantNoProfiles(t, tmp)
	if err := b.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := b.Snapshot(tctx(t)); !errors.Is(err, ErrClosed) {
		t.Errorf("Snapshot after Close: %v", err)
	}
	if _, err := b.Do(tctx(t), contract.Action{Name: contract.ActBack}); !errors.Is(err, ErrClosed) {
		t.Errorf("Do after Close: %v", err)
	}
}

func TestChromeNotFound(t *testing.T) {
	_, err := Launch(tctx(t), Options{ChromePath: "/nonexistent/chromium"})
	if !errors.Is(err, ErrChromeNotFound) || !strings.Contains(err.Error(), "apt-get install chromium") {
		t.Errorf("launch with a missing binary: %v", err)
	}
}

func TestLaunchFailureShowsChromeOutput(t *testing.T) {
	script := filepath.Join(t.TempDir(), "fake-chrome")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho 'fake chrome: cannot open display' >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := isolateTempDir(t)
	_, err := Launch(tctx(t), Options{ChromePath: script})
	if err == nil || !strings.Contains(err.Error(), "fake chrome: cannot open display") {
		t.Errorf("launch of a failing browser: %v", err)
	}
	wantNoProfiles(t, tmp)
}

func TestLaunchContextEnds(t *testing.T) {
	for _, d := range []time.Duration{50 * time.Millisecond, 250 * time.Millisecond} {
		tmp := isolateTempDir(t)
		ctx, cancel := context.WithTimeout(context.Background(), d)
		b, err := Launch(ctx, Options{})
		cancel()
		if err == nil && d > 50*time.Millisecond {
			// A fast machine started within the deadline.
			if err := b.Close(); err != nil {
				t.Error(err)
			}
			continue
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("launch with a %v deadline: %v", d, err)
		}
		// A start cut short returns at once; its reaper removes the
		// folders (launcher.Process.Abandon).
		waitNoProfiles(t, tmp, 3*time.Second)
	}
}

// waitNoProfiles waits, up to d, for tmp to hold no profile or temporary
// folder, then checks it as wantNoProfiles does.
func waitNoProfiles(t *testing.T, tmp string, d time.Duration) {
	t.Helper()
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for done := false; !done; {
		m, _ := filepath.Glob(filepath.Join(tmp, "webagent-*"))
		c, _ := filepath.Glob(filepath.Join(tmp, "org.chromium.Chromium.*"))
		if len(m)+len(c) == 0 {
			break
		}
		select {
		case <-deadline.C:
			done = true
		case <-tick.C:
		}
	}
	wantNoProfiles(t, tmp)
}

// isolateTempDir points os.TempDir at a directory of the test's own, so
// that it sees only the profiles it made (other programs on the machine may
// run Chromium too).
func isolateTempDir(t *testing.T) string {
	t.Helper()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	return tmp
}

// shortTempDir points os.TempDir at shortDir's folder.
func shortTempDir(t *testing.T) string {
	t.Helper()
	tmp := shortDir(t)
	t.Setenv("TMPDIR", tmp)
	return tmp
}

// shortDir makes a folder with a short path, removed after the test (a
// test's own t.TempDir can be too long for Chromium's socket under it, and
// then Chromium's temporary folder goes to /tmp instead).
func shortDir(t *testing.T) string {
	t.Helper()
	tmp, err := os.MkdirTemp("/tmp", "wa-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	return tmp
}

// wantNoProfiles fails the test if a profile dir, or a temporary folder of
// Chromium's, is left in tmp, or a process still uses one.
func wantNoProfiles(t *testing.T, tmp string) {
	t.Helper()
	var left []string
	for _, pat := range []string{launcher.ProfilePrefix + "*", launcher.TempPrefix + "*", "org.chromium.Chromium.*"} {
		m, err := filepath.Glob(filepath.Join(tmp, pat))
		if err != nil {
			t.Fatal(err)
		}
		left = append(left, m...)
	}
	if len(left) > 0 {
		t.Errorf("profile or temporary dirs left: %v", left)
	}
	for _, d := range left {
		if pids := launcher.ProcessesUsing(d); len(pids) > 0 {
			t.Errorf("processes left using %s: %v", d, pids)
		}
	}
}

// helperEnv makes the test binary act as a program that launches a browser,
// prints its profile dir and waits to be killed.
const helperEnv = "WEBAGENT_BROWSER_TEST_HELPER"

func helperMain() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if os.Getenv(helperEnv) == "server" {
		s, err := StartServer(ctx, Options{})
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("profile:", s.proc.Profile)
		select {} // until killed
	}
	b, err := Launch(ctx, Options{})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("profile:", b.sess.profile(), b.downloads.folder())
	select {} // until killed
}

// Chromium started by Launch, or by StartServer, dies with its parent even
// when the parent is killed with SIGKILL.
func TestChromiumDiesWithKilledParent(t *testing.T) {
	for _, mode := range []string{"launch", "server"} {
		t.Run(mode, func(t *testing.T) { chromiumDiesWithKilledParent(t, mode) })
	}
}

func chromiumDiesWithKilledParent(t *testing.T, mode string) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	// The helper's temporary folders go in one of the test's own, which
	// the test removes: a killed process cannot.
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, "TMPDIR="+shortDir(t))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	dirs, ok := strings.CutPrefix(strings.TrimSpace(line), "profile: ")
	if err != nil || !ok {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("helper said %q (%v)", line, err)
	}
	// A process killed with SIGKILL cannot remove its temporary folders
	// (the profile, the download folder); the test does.
	dir, _, _ := strings.Cut(dirs, " ")
	t.Cleanup(func() {
		for _, d := range strings.Fields(dirs) {
			_ = os.RemoveAll(d)
		}
	})
	if len(launcher.ProcessesUsing(dir)) == 0 {
		t.Fatalf("no chromium runs with %s", dir)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	waitFor(t, "chromium to die with its parent", 10*time.Second, func() bool { return len(launcher.ProcessesUsing(dir)) == 0 })
}

// startChromium starts a browser for attach tests with a DevTools port and
// returns its websocket and http addresses.
func startChromium(t *testing.T) (wsURL, httpURL string, proc *os.Process) {
	t.Helper()
	path, err := launcher.Find("")
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	cmd := exec.Command(path, "--headless", "--no-sandbox", "--remote-debugging-port=0", "--user-data-dir="+dir,
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
		"--disable-quic", "--disable-gpu", "about:blank")
	// Chromium's own temporary folder too goes in one of the test's, since
	// the test kills it.
	cmd.Env = append(os.Environ(), "TMPDIR="+shortDir(t))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		launcher.KillLeftovers(dir)
	})
	var port, path2 string
	waitFor(t, "DevToolsActivePort", 20*time.Second, func() bool {
		data, err := os.ReadFile(filepath.Join(dir, "DevToolsActivePort"))
		if err != nil {
			return false
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) < 2 {
			return false
		}
		port, path2 = lines[0], lines[1]
		return true
	})
	return "ws://127.0.0.1:" + port + path2, "http://127.0.0.1:" + port, cmd.Process
}

// pageTargets lists the ids of a browser's page targets.
func pageTargets(t *testing.T, httpURL string) []string {
	t.Helper()
	resp, err := http.Get(httpURL + "/json/list")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list []struct{ ID, Type string }
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range list {
		if e.Type == "page" {
			ids = append(ids, e.ID)
		}
	}
	return ids
}

func TestAttach(t *testing.T) {
	wsURL, httpURL, proc := startChromium(t)
	waitFor(t, "the first tab", 10*time.Second, func() bool { return len(pageTargets(t, httpURL)) > 0 })
	before := pageTargets(t, httpURL)

	for _, addr := range []string{wsURL, httpURL} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		b, err := Launch(ctx, Options{CDPURL: addr})
		cancel()
		if err != nil {
			t.Fatalf("attach to %s: %v", addr, err)
		}
		if b.sess.proc != nil || b.sess.profile() != "" {
			t.Errorf("attached browser has a process or profile")
		}
		if len(pageTargets(t, httpURL)) != len(before)+1 {
			t.Errorf("attach did not open one tab: %v", pageTargets(t, httpURL))
		}
		s := open(t, b, servePage(t, `<title>Attached</title><button onclick="this.textContent='done'">Act</button>`))
		do(t, b, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Act"`)})
		refOf(t, snapshot(t, b), `button "done"`)
		if err := b.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
		if got := pageTargets(t, httpURL); strings.Join(got, ",") != strings.Join(before, ",") {
			t.Errorf("tabs after Close: %v, want %v", got, before)
		}
		if err := proc.Signal(syscall.Signal(0)); err != nil {
			t.Errorf("the browser we attached to is gone: %v", err)
		}
	}
}

func TestAttachFails(t *testing.T) {
	_, err := Launch(tctx(t), Options{CDPURL: "ws://127.0.0.1:1/devtools/browser/x"})
	if err == nil || errors.Is(err, ErrChromeNotFound) {
		t.Errorf("attach to nothing: %v", err)
	}
}

func TestLaunchConfigErrors(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	for _, c := range []struct {
		name string
		opts Options
		want string
	}{
		{"closed port", Options{CDPURL: closed}, "nothing answers at " + closed},
		{"not chromium", Options{ChromePath: "/bin/true"}, "/bin/true did not start as a Chromium browser"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			b, err := Launch(ctx, c.opts)
			if err == nil {
				b.Close()
				t.Fatal("Launch succeeded")
			}
			var ce *ConfigError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.want) || ce.Err == nil {
				t.Fatalf("Launch = %v (%T), want a *ConfigError saying %q", err, err, c.want)
			}
		})
	}
	t.Run("cancelled is not a configuration error", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := Launch(ctx, Options{CDPURL: closed})
		var ce *ConfigError
		if err == nil || errors.As(err, &ce) {
			t.Fatalf("Launch with a cancelled context = %v, want a context error", err)
		}
	})
}

// A launched browser speaks DevTools over pipes: it opens no port that
// another program of the machine could attach to (and so drive the
// browser the agent types secrets into).
func TestLaunchOpensNoDevToolsPort(t *testing.T) {
	b := launch(t, Options{})
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", b.PID()))
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Split(string(cmdline), "\x00")
	if !slices.Contains(args, "--remote-debugging-pipe") || slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--remote-debugging-port") }) {
		t.Errorf("chromium runs with %q", args)
	}
	if _, err := os.Stat(filepath.Join(b.sess.profile(), "DevToolsActivePort")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the profile has a DevToolsActivePort file (%v)", err)
	}
}
