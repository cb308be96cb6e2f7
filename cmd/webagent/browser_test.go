package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/browser/launcher"
	"github.com/webagent/webagent/testfixture/signin"
	"github.com/webagent/webagent/testfixture/tier"
)

// bsess is a webagent browser session of a test, driven through the built
// binary as a coding agent drives it: a socket folder and a TMPDIR of its
// own; at the end it is closed and nothing of it may be left.
type bsess struct {
	env  []string
	tmp  string
	name string
}

func newBrowserSession(t *testing.T) *bsess {
	t.Helper()
	s := &bsess{tmp: t.TempDir(), name: "s"}
	rt := t.TempDir()
	s.env = []string{"TMPDIR=" + s.tmp, "XDG_RUNTIME_DIR=" + rt, "WEBAGENT_SESSION=" + s.name}
	t.Cleanup(func() {
		if t.Failed() {
			// What the session logged is the failure's best witness; close
			// removes it.
			if b, err := os.ReadFile(filepath.Join(rt, "webagent", s.name+".log")); err == nil {
				t.Logf("the session's log:\n%s", lastLines(string(b), 60))
			}
		}
		pid := s.pid()
		code, _, errOut, _ := s.cmd(t, "close")
		if code != 0 && !strings.Contains(errOut, "no such session") {
			t.Errorf("close: exit %d: %s", code, errOut)
		}
		if pid > 0 {
			waitExit(t, pid, 15*time.Second)
		}
		p := &proc{tmp: s.tmp}
		if left := p.goneWithin(leftWithin); len(left) > 0 {
			t.Errorf("left behind after close: %v", left)
		}
		// Nor in the sockets' folder: no socket, lock or log, and no live
		// view listed (the registry's folder stays, as the sockets' does).
		if pid > 0 {
			left, _ := filepath.Glob(filepath.Join(rt, "webagent", "*"))
			listed, _ := filepath.Glob(filepath.Join(rt, "webagent", "live", "*"))
			left = slices.DeleteFunc(left, func(p string) bool { return filepath.Base(p) == "live" })
			if left = append(left, listed...); len(left) > 0 {
				t.Errorf("left in the sessions' folder after close: %v", left)
			}
		}
	})
	return s
}

// cmd runs webagent browser ARGS and returns its exit status, stdout,
// stderr and how long it took.
func (s *bsess) cmd(t *testing.T, args ...string) (int, string, string, time.Duration) {
	t.Helper()
	began := time.Now()
	p := startEnv(t, s.env, append([]string{"browser"}, args...)...)
	code := p.wait(t, 3*time.Minute)
	took := time.Since(began)
	t.Logf("browser %s: exit %d after %s\n%s%s", strings.Join(args, " "), code, took.Round(time.Millisecond), p.stdout.String(), p.stderr.String())
	return code, p.stdout.String(), p.stderr.String(), took
}

// must runs a command that must succeed and returns its stdout.
func (s *bsess) must(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errOut, _ := s.cmd(t, args...)
	if code != 0 {
		t.Fatalf("browser %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// pid is the session process's id, 0 when none runs.
func (s *bsess) pid() int {
	cmd := exec.Command(bin, "browser", "status")
	cmd.Env = append(os.Environ(), s.env...)
	out, _ := cmd.CombinedOutput()
	m := regexp.MustCompile(`, process (\d+)`).FindSubmatch(out)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

// waitExit waits for the process to be gone (it is not this process's
// child: signal 0 says).
func waitExit(t testing.TB, pid int, within time.Duration) {
	t.Helper()
	waitFor(t, fmt.Sprintf("process %d to exit", pid), within, func() bool {
		return syscall.Kill(pid, 0) != nil
	})
}

// refIn finds the ref of the line that starts with what in a snapshot.
func refIn(t *testing.T, snap, what string) string {
	t.Helper()
	for line := range strings.Lines(snap) {
		if strings.HasPrefix(strings.TrimSpace(line), what) {
			if m := regexp.MustCompile(`\[ref=(e\d+)\]`).FindStringSubmatch(line); m != nil {
				return m[1]
			}
		}
	}
	t.Fatalf("no %s in the snapshot:\n%s", what, snap)
	return ""
}

// A sign-in done command by command, as a coding agent does it: refs from
// the snapshot, a secret typed by name and never shown, a second agent
// that shares the cookies in a tab of its own, and the exit statuses.
func TestBrowserSignIn(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	members := signin.New()
	site := httptest.NewServer(members)
	t.Cleanup(site.Close)
	s := newBrowserSession(t)
	start := []string{"open", site.URL + "/", "--allowed-domains", strings.TrimPrefix(site.URL, "http://"),
		"--secret", "pw@" + site.URL + "=" + signin.Password}
	if out := s.must(t, start...); !strings.Contains(out, "navigated to "+site.URL) {
		t.Fatalf("open said %q", out)
	}
	snap := s.must(t, "snapshot")
	s.must(t, "type", refIn(t, snap, `textbox "Username"`), "alice")
	s.must(t, "type", "@"+refIn(t, snap, `textbox "Password"`), "<secret>pw</secret>")
	out := s.must(t, "click", refIn(t, snap, `button "Sign in"`))
	if !strings.Contains(out, "/home") {
		t.Errorf("the click said %q", out)
	}
	code, js, _, _ := s.cmd(t, "snapshot", "--json")
	var r struct {
		OK   bool   `json:"ok"`
		Text string `json:"text"`
		Tab  string `json:"tab"`
	}
	if err := json.Unmarshal([]byte(js), &r); err != nil || code != 0 || !r.OK || r.Tab != "t1" {
		t.Fatalf("snapshot --json: exit %d, %v: %s", code, err, js)
	}
	if !strings.Contains(r.Text, `Welcome, alice`) || !strings.Contains(r.Text, "Your plan: Gold") {
		t.Errorf("not signed in:\n%s", r.Text)
	}
	if logins, _ := members.State(); len(logins) != 1 || logins[0] != "alice" {
		t.Errorf("the site saw the sign-ins %q", logins)
	}

	// Another agent: a tab of its own, the same cookies.
	if out := s.must(t, "open", site.URL+"/home", "--agent", "bob"); !strings.Contains(out, "/home") {
		t.Errorf("bob's open said %q", out)
	}
	if snap := s.must(t, "snapshot", "--agent", "bob"); !strings.Contains(snap, "Welcome, alice") {
		t.Errorf("bob does not share the sign-in:\n%s", snap)
	}
	tabs := s.must(t, "tabs", "--agent", "bob")
	if !strings.Contains(tabs, "t1") || !strings.Contains(tabs, "agent default's tab, not yours") {
		t.Errorf("bob's tabs:\n%s", tabs)
	}
	if code, _, errOut, _ := s.cmd(t, "tabs", "switch", "t1", "--agent", "bob"); code != 1 || !strings.Contains(errOut, "not yours") {
		t.Errorf("bob switched to the other agent's tab: exit %d %s", code, errOut)
	}
	if snap := s.must(t, "snapshot"); !strings.Contains(snap, "Page: "+site.URL+"/home") {
		t.Errorf("the default agent's tab moved:\n%s", snap)
	}

	// Exit statuses: a failed action 1, bad usage 2.
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"click", "e999"}, 1, "e999"},
		{[]string{"click"}, 2, "ref"},
		{[]string{"clik", "e1"}, 2, `did you mean "click"`},
		{[]string{"wait-for", "--timeout-ms", "soon"}, 2, "whole number"},
		{[]string{"snapshot", "--agent", "../x"}, 2, "--agent"},
	} {
		code, out, errOut, _ := s.cmd(t, c.args...)
		if code != c.code || !strings.Contains(out+errOut, c.says) {
			t.Errorf("browser %s: exit %d (want %d), output %q (want %q)", strings.Join(c.args, " "), code, c.code, out+errOut, c.says)
		}
	}
	// The secret is on no process's command line (others may read those)
	// and in no log.
	if pid := s.pid(); pid > 0 {
		if b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); bytes.Contains(b, []byte(signin.Password)) || !bytes.Contains(b, []byte("__serve")) {
			t.Errorf("the session's command line: %q", b)
		}
	}
	// The secret reached no log.
	logs, _ := filepath.Glob(filepath.Join(strings.TrimPrefix(s.env[1], "XDG_RUNTIME_DIR="), "webagent", "*.log"))
	for _, l := range logs {
		if b, _ := os.ReadFile(l); bytes.Contains(b, []byte(signin.Password)) {
			t.Errorf("the secret is in %s", l)
		}
	}
}

// sitePages serves the pages on loopback and returns the base URL and the
// host:port to allow. Each seen func is told the path of every request.
func sitePages(t testing.TB, pages map[string]string, seen ...func(path string)) (string, string) {
	t.Helper()
	mux := http.NewServeMux()
	for path, body := range pages {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			for _, f := range seen {
				f(r.URL.Path)
			}
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, body)
		})
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL, strings.TrimPrefix(srv.URL, "http://")
}

// slack is what a command may take past its budget: the client's start,
// the round trip, a busy machine.
const slack = 2 * time.Second

// A page that freezes its renderer after a click, and one whose script
// never lets an evaluation answer: every command ends within its budget
// with its status (124 when it timed out), and once the page is left the
// session works again.
func TestBrowserFrozenPage(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	// The page asks for /frozen as its loop starts: the test knows when
	// the renderer froze (the click returns before its timer fires).
	frozen := make(chan struct{})
	var once sync.Once
	base, host := sitePages(t, map[string]string{
		"/":       `<title>Freeze</title><button onclick="setTimeout(() => { fetch('/frozen'); for (;;) {} }, 50)">Freeze</button>`,
		"/spin":   `<title>Spin</title><p>spinning</p><script>for (;;) {}</script>`,
		"/ok":     `<title>Fine</title><p>all fine</p>`,
		"/frozen": "",
	}, func(path string) {
		if path == "/frozen" {
			once.Do(func() { close(frozen) })
		}
	})
	s := newBrowserSession(t)
	s.must(t, "open", base+"/", "--allowed-domains", host, "--log-level", "debug")
	snap := s.must(t, "snapshot")
	code, _, errOut, took := s.cmd(t, "click", refIn(t, snap, `button "Freeze"`))
	if took > 10*time.Second+slack || (code != 0 && code != exitTimedOut) {
		t.Errorf("click on the freezing button: exit %d after %s: %s", code, took, errOut)
	}
	select {
	case <-frozen:
	case <-time.After(10 * time.Second):
		t.Fatal("the page did not ask for /frozen within 10 s of the click: its loop never started")
	}
	// On a busy machine the click may still be reading the page when the
	// loop starts; then the click itself met the freeze and timed out.
	if code == 0 {
		code, _, errOut, took = s.cmd(t, "snapshot")
		if code != exitTimedOut || took > 10*time.Second+slack || !strings.Contains(errOut, "abandoned") {
			t.Errorf("snapshot of the frozen page: exit %d after %s (want %d within 10s): %s", code, took, exitTimedOut, errOut)
		}
	}
	// The page was recovered: the next command works.
	code, out, errOut, took := s.cmd(t, "snapshot")
	if code != 0 || took > 10*time.Second+recoverSlack {
		t.Errorf("snapshot after the recovery: exit %d after %s: %s%s", code, took, out, errOut)
	}

	// Its script never yields: the open ends at its budget at the latest,
	// and the page recovered (the script ended) answers the next command.
	code, _, errOut, took = s.cmd(t, "open", base+"/spin")
	if took > 30*time.Second+slack || (code != 0 && code != exitTimedOut) {
		t.Errorf("open of the spinning page: exit %d after %s: %s", code, took, errOut)
	}
	code, _, errOut, took = s.cmd(t, "snapshot")
	if took > 10*time.Second+recoverSlack || (code != 0 && code != exitTimedOut) {
		t.Errorf("snapshot of the spinning page: exit %d after %s: %s", code, took, errOut)
	}
	s.must(t, "open", base+"/ok")
	if snap := s.must(t, "snapshot"); !strings.Contains(snap, "all fine") {
		t.Errorf("after leaving the spinning page:\n%s", snap)
	}
}

// recoverSlack is slack plus the recovery of the page after a command
// timed out, which the next command waits for.
const recoverSlack = slack + 10*time.Second

// Four clients at once for two agents, a hundred commands, now and then a
// client killed mid-command (SIGKILL): no command outlives its bound, no
// agent ever sees or acts on the other's tab, and the session works after.
func TestBrowserManyClients(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	base, host := sitePages(t, map[string]string{
		"/a": `<title>Page A</title><h1>agent a's page</h1><button>Press A</button><div style="height:3000px"></div>`,
		"/b": `<title>Page B</title><h1>agent b's page</h1><button>Press B</button><div style="height:3000px"></div>`,
	})
	s := newBrowserSession(t)
	s.must(t, "open", base+"/a", "--agent", "a", "--allowed-domains", host)
	s.must(t, "open", base+"/b", "--agent", "b")
	cmds := [][]string{{"snapshot"}, {"tabs"}, {"scroll", "down"}, {"scroll", "up"}, {"press", "Tab"}, {"status"}}
	var mu sync.Mutex
	var problems []string
	note := func(f string, args ...any) {
		mu.Lock()
		problems = append(problems, fmt.Sprintf(f, args...))
		mu.Unlock()
	}
	var wg sync.WaitGroup
	var killed, done int
	for c := range 4 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(c), 7))
			for i := range 25 {
				ag := []string{"a", "b"}[(c+i)%2]
				args := append([]string{"browser"}, cmds[rng.IntN(len(cmds))]...)
				args = append(args, "--agent", ag)
				cmd := exec.Command(bin, args...)
				cmd.Env = append(os.Environ(), s.env...)
				var out, errOut bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errOut
				began := time.Now()
				if err := cmd.Start(); err != nil {
					note("start: %v", err)
					return
				}
				kill := rng.IntN(5) == 0
				var timer *time.Timer
				if kill {
					timer = time.AfterFunc(time.Duration(rng.IntN(200))*time.Millisecond, func() { _ = cmd.Process.Kill() })
				}
				err := cmd.Wait()
				took := time.Since(began)
				if timer != nil {
					timer.Stop()
				}
				mu.Lock()
				if cmd.ProcessState.Sys().(syscall.WaitStatus).Signaled() {
					killed++
				} else {
					done++
				}
				mu.Unlock()
				// A command waits for the others' turns too: the backstop.
				if took > 10*time.Second+recoverSlack {
					note("%v took %s", args, took)
				}
				if err != nil && !kill {
					note("%v: %v: %s", args, err, errOut.String())
				}
				other := map[string]string{"a": "Page B", "b": "Page A"}[ag]
				if args[1] == "snapshot" && strings.Contains(out.String(), other) {
					note("agent %s saw the other's page:\n%s", ag, out.String())
				}
			}
		})
	}
	wg.Wait()
	for _, p := range problems {
		t.Error(p)
	}
	t.Logf("%d commands done, %d clients killed", done, killed)
	for ag, page := range map[string]string{"a": "Page A", "b": "Page B"} {
		if snap := s.must(t, "snapshot", "--agent", ag); !strings.Contains(snap, "Title: "+page) {
			t.Errorf("agent %s's tab after the run:\n%s", ag, snap)
		}
	}
}

// A session ends after its idle timeout, and a session process killed
// with SIGKILL takes its Chromium with it: nothing is left either way.
func TestBrowserSessionEnds(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	base, host := sitePages(t, map[string]string{"/": `<title>Idle</title><p>idle page</p>`})
	s := newBrowserSession(t)
	s.must(t, "open", base+"/", "--allowed-domains", host, "--idle-timeout", "2s")
	pid := s.pid()
	if pid == 0 {
		t.Fatal("no session process")
	}
	waitExit(t, pid, 2*time.Second+leftWithin+slack)
	if left := (&proc{tmp: s.tmp}).goneWithin(leftWithin); len(left) > 0 {
		t.Errorf("left after the idle timeout: %v", left)
	}

	s.must(t, "open", base+"/", "--allowed-domains", host)
	pid = s.pid()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitExit(t, pid, 5*time.Second)
	if left := (&proc{tmp: s.tmp}).goneWithin(leftWithin); len(left) > 0 {
		t.Errorf("left after SIGKILL of the session: %v", left)
	}
	// The next command starts a new session.
	if out := s.must(t, "open", base+"/", "--allowed-domains", host); !strings.Contains(out, "navigated") {
		t.Errorf("open after the kill said %q", out)
	}
}

// A launch setting applies when a command starts the session: a later
// command that repeats it runs, and one that gives it another value (or
// one the session did not start with) is exit 2 saying to close the
// session first, and does nothing, instead of being ignored.
func TestBrowserLaunchSettingsHeld(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	base, host := sitePages(t, map[string]string{"/": `<title>Held</title><button onclick="document.title='Clicked'">Go</button>`})
	s := newBrowserSession(t)
	s.must(t, "open", base+"/", "--allowed-domains", host, "--viewport", "800x600")
	s.must(t, "--viewport", "800x600", "snapshot", "--allowed-domains", host)
	for _, args := range [][]string{
		{"snapshot", "--viewport", "1024x768"},
		{"click", "e1", "--locale", "de-DE", "--viewport", "800x600"},
	} {
		code, out, errOut, _ := s.cmd(t, args...)
		if code != exitUsage || !strings.Contains(out+errOut, "applies when a session starts") || !strings.Contains(out+errOut, "webagent browser --session s close") {
			t.Errorf("browser %s: exit %d, %q; want exit 2 saying to close the session first", strings.Join(args, " "), code, out+errOut)
		}
	}
	if out := s.must(t, "snapshot"); !strings.Contains(out, "Held") || strings.Contains(out, "Clicked") {
		t.Errorf("the page after the refused click: %q; want it not clicked", out)
	}
}

// --auto-connect attaches to a Chromium the user runs with remote
// debugging on, found through its profile's DevToolsActivePort: the
// session works in tabs of its own there and closes only those; the
// user's browser and tab stay. With no such browser it is exit 2 saying
// how to turn remote debugging on.
func TestBrowserAutoConnect(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	base, host := sitePages(t, map[string]string{"/": `<title>Attached</title><p>in the user's browser</p>`})
	chrome, err := launcher.Find("")
	if err != nil {
		t.Fatal(err)
	}
	profile := t.TempDir()
	s := newBrowserSession(t)
	code, _, errOut, _ := s.cmd(t, "open", base+"/", "--auto-connect", "--user-data-dir", profile)
	if code != exitUsage || !strings.Contains(errOut, "remote-debugging") {
		t.Errorf("--auto-connect with no browser: exit %d: %s", code, errOut)
	}

	user := exec.Command(chrome, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0", "--user-data-dir="+profile, "about:blank")
	user.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// Its own temp folder: Chromium's singleton folder goes there, not
	// into /tmp, where a browser killed at the end would leave it.
	user.Env = append(os.Environ(), "TMPDIR="+t.TempDir())
	if err := user.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-user.Process.Pid, syscall.SIGKILL)
		_ = user.Wait()
	})
	port := filepath.Join(profile, "DevToolsActivePort")
	waitFor(t, "the user's browser's DevToolsActivePort", 30*time.Second, func() bool {
		b, err := os.ReadFile(port)
		return err == nil && strings.Count(string(b), "\n") >= 1
	})
	pages := func() []string {
		b, _ := os.ReadFile(port)
		resp, err := http.Get("http://127.0.0.1:" + strings.SplitN(string(b), "\n", 2)[0] + "/json/list")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var list []struct{ Type, URL string }
		_ = json.NewDecoder(resp.Body).Decode(&list)
		var urls []string
		for _, p := range list {
			if p.Type == "page" {
				urls = append(urls, p.URL)
			}
		}
		return urls
	}
	s.must(t, "open", base+"/", "--auto-connect", "--user-data-dir", profile, "--allowed-domains", host)
	if snap := s.must(t, "snapshot"); !strings.Contains(snap, "in the user's browser") {
		t.Errorf("snapshot:\n%s", snap)
	}
	if got := pages(); !slices.Contains(got, "about:blank") || !slices.Contains(got, base+"/") {
		t.Errorf("the user's browser's pages while attached: %q", got)
	}
	s.must(t, "close")
	waitFor(t, "the session's tab to close", 10*time.Second, func() bool { return !slices.Contains(pages(), base+"/") })
	if got := pages(); !slices.Equal(got, []string{"about:blank"}) {
		t.Errorf("the user's browser's pages after close: %q", got)
	}
	if user.ProcessState != nil || syscall.Kill(user.Process.Pid, 0) != nil {
		t.Error("the user's browser is gone")
	}
}

// browser screenshot --annotate writes a PNG with the refs drawn: the
// button's box edge has the mark colour, the plain screenshot has not.
func TestBrowserScreenshotAnnotate(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	url, host := sitePages(t, map[string]string{"/": `<body style="margin:0;background:#fff">` +
		`<button style="position:absolute;left:100px;top:80px;width:120px;height:40px">Go</button></body>`})
	s := newBrowserSession(t)
	s.must(t, "open", url+"/", "--allowed-domains", host)
	marked, plain := filepath.Join(t.TempDir(), "marked.png"), filepath.Join(t.TempDir(), "plain.png")
	if out := s.must(t, "screenshot", marked, "--annotate"); !strings.Contains(out, marked) {
		t.Errorf("screenshot said %q", out)
	}
	s.must(t, "screenshot", plain)
	at := func(path string, x, y int) bool {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		img, err := png.Decode(f)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		r, g, b, _ := img.At(x, y).RGBA()
		c := browser.MarkColour
		return r>>8 == uint32(c.R) && g>>8 == uint32(c.G) && b>>8 == uint32(c.B)
	}
	if !at(marked, 100, 100) || !at(marked, 219, 100) {
		t.Error("the annotated screenshot has no mark on the button's box edge")
	}
	if at(plain, 100, 100) {
		t.Error("the plain screenshot has a mark")
	}
}
