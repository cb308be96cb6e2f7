package launcher

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// shortTemp gives the test a temporary folder of its own as TMPDIR, short
// enough for Chromium's singleton socket, so that what a browser leaves is
// seen there.
func shortTemp(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("/tmp", "wl-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	t.Setenv("TMPDIR", dir)
	return dir
}

func start(t *testing.T, cfg Config) *Process {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// A started browser answers at its DevTools address; Close leaves no
// process, no profile and no temporary folder, and can be called again.
func TestStartClose(t *testing.T) {
	tmp := shortTemp(t)
	p := start(t, Config{Flags: BrowserFlags(true)})
	if !strings.HasPrefix(p.URL, "ws://127.0.0.1:") || !p.Alive() || p.Persistent() {
		t.Fatalf("started %q alive=%v persistent=%v", p.URL, p.Alive(), p.Persistent())
	}
	// The helpers start a moment after the DevTools address is printed
	// (longer on a busy machine: a wait for Chromium, not a bound of ours).
	// Now and then this Chromium shows none that names the profile within
	// 30 s (twice in some thirty full runs): then the kill of helpers is
	// not exercised by this run, which is said, not failed; what Close
	// leaves is checked either way, by profile and by process group.
	pgid := p.cmd.Process.Pid
	if !within(30*time.Second, func() bool { return len(ProcessesUsing(p.Profile)) >= 2 }) {
		t.Logf("no helper of the browser named its profile within 30 s (processes of its group: %v)", groupMembers(pgid, p.Profile))
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if left := groupMembers(pgid, p.Profile); len(left) > 0 {
		t.Errorf("processes of the browser's group left: %v", left)
	}
	if p.Alive() {
		t.Error("alive after Close")
	}
	if left := ProcessesUsing(p.Profile); len(left) > 0 {
		t.Errorf("processes left: %v", left)
	}
	wantNothingLeft(t, tmp)
	if err := p.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// A persistent profile is kept by Close, and refused while a browser holds
// it.
func TestPersistentProfile(t *testing.T) {
	shortTemp(t)
	dir := filepath.Join(t.TempDir(), "profile")
	p := start(t, Config{UserDataDir: dir, Flags: BrowserFlags(true)})
	if !p.Persistent() || p.Profile != dir {
		t.Fatalf("profile %s persistent=%v", p.Profile, p.Persistent())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := Start(ctx, Config{UserDataDir: dir, Flags: BrowserFlags(true)})
	var ce *ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "is in use") {
		t.Fatalf("second browser on the profile: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the persistent profile is gone: %v", err)
	}
}

// A binary that is not Chromium is a *ConfigError quoting what it printed,
// and leaves nothing behind.
func TestStartNotChromium(t *testing.T) {
	tmp := shortTemp(t)
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip(err)
	}
	fake := filepath.Join(t.TempDir(), "fake-chrome")
	if err := os.WriteFile(fake, []byte("#!"+sh+"\necho 'I am not a browser'\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = Start(ctx, Config{Path: fake, Flags: BrowserFlags(true)})
	var ce *ConfigError
	if !errors.As(err, &ce) || !strings.Contains(ce.Problem, "I am not a browser") {
		t.Fatalf("got %v", err)
	}
	wantNothingLeft(t, tmp)
	if err := Check(ctx, fake); !errors.As(err, &ce) {
		t.Errorf("Check of the fake: %v", err)
	}
	if _, err := Find(filepath.Join(t.TempDir(), "none")); !errors.Is(err, ErrNotFound) {
		t.Errorf("Find of a missing binary: %v", err)
	}
}

// A start that its context ends returns the context's error in time and
// leaves nothing running.
func TestStartBoundedByContext(t *testing.T) {
	tmp := shortTemp(t)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	_, err := Start(ctx, Config{Flags: BrowserFlags(true)})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Errorf("Start returned %v after its deadline", d)
	}
	wantNothingLeft(t, tmp)
}

// wantNothingLeft fails the test when a browser's profile, its temporary
// folder or Chromium's own singleton folder is left in tmp.
func wantNothingLeft(t *testing.T, tmp string) {
	t.Helper()
	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, ProfilePrefix) || strings.HasPrefix(n, TempPrefix) || strings.HasPrefix(n, "org.chromium.") {
			t.Errorf("left in TMPDIR: %s", n)
		}
	}
}

// A browser whose main process is killed is noticed (Done), and Close
// still kills its helpers and removes its folders.
func TestKilledBrowser(t *testing.T) {
	shortTemp(t)
	p := start(t, Config{Flags: BrowserFlags(true)})
	if err := syscall.Kill(p.PID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("Done was not closed after the browser was killed")
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if left := ProcessesUsing(p.Profile); len(left) > 0 {
		t.Errorf("helpers left: %v", left)
	}
	if _, err := os.Stat(p.Profile); !os.IsNotExist(err) {
		t.Errorf("profile left: %v", err)
	}
}

// A browser with a window where there is no display and no Xvfb to make
// one: Start says what to install before anything starts.
func TestHeadfulNeedsDisplay(t *testing.T) {
	chrome, err := Find("")
	if err != nil {
		t.Skip(err)
	}
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	t.Setenv("PATH", t.TempDir())
	_, err = Start(context.Background(), Config{Path: chrome, Flags: BrowserFlags(false)})
	var ce *ConfigError
	if !errors.As(err, &ce) || !errors.Is(err, ErrNoXvfb) || !strings.Contains(ce.Problem, "display") || !strings.Contains(ce.Fix, "apt-get install xvfb") {
		t.Fatalf("got %v", err)
	}
}

// A browser with a window where there is no display runs on a virtual
// one, which Close stops with the browser: no Xvfb, no lock file left.
func TestHeadfulStartsVirtualDisplay(t *testing.T) {
	if _, err := exec.LookPath("Xvfb"); err != nil {
		t.Skip("Xvfb is not installed (apt-get install xvfb)")
	}
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	p := start(t, Config{Flags: BrowserFlags(false)})
	if p.display == nil || !p.Alive() {
		t.Fatalf("no virtual display (%v), or the browser is gone (alive %v)", p.display, p.Alive())
	}
	xvfb, name := p.display.cmd.Process.Pid, p.display.name
	if os.Getenv("DISPLAY") != "" {
		t.Errorf("the display was set for this process too: %q", os.Getenv("DISPLAY"))
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(xvfb, 0); err == nil {
		t.Errorf("Xvfb (pid %d) still runs after Close", xvfb)
	}
	if _, err := os.Stat("/tmp/.X" + strings.TrimPrefix(name, ":") + "-lock"); err == nil {
		t.Errorf("Xvfb's lock file for %s is left", name)
	}
}

// niceOf lists the nice value of every thread of the processes pids.
func niceOf(pids []int) map[string]int {
	nice := map[string]int{}
	for _, pid := range pids {
		stats, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/stat", pid))
		for _, f := range stats {
			b, err := os.ReadFile(f)
			i := bytes.LastIndexByte(b, ')')
			if err != nil || i < 0 {
				continue
			}
			// After "pid (comm) ": state is field 3, nice field 19.
			fields := strings.Fields(string(b[i+1:]))
			if len(fields) < 17 {
				continue
			}
			n, _ := strconv.Atoi(fields[16])
			nice[f+" "+string(b[bytes.IndexByte(b, '(')+1:i])] = n
		}
	}
	return nice
}

// groupOf lists the processes of the process group pgid.
func groupOf(pgid int) []int {
	var pids []int
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range stats {
		b, err := os.ReadFile(f)
		i := bytes.LastIndexByte(b, ')')
		if err != nil || i < 0 {
			continue
		}
		// After "pid (comm) ": state, ppid, pgrp.
		if fields := strings.Fields(string(b[i+1:])); len(fields) > 2 && fields[2] == strconv.Itoa(pgid) {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
			pids = append(pids, pid)
		}
	}
	return pids
}

// setNice sets every thread of this process to nice n.
func setNice(n int) {
	tasks, _ := os.ReadDir("/proc/self/task")
	for _, task := range tasks {
		if tid, err := strconv.Atoi(task.Name()); err == nil {
			_ = unix.Setpriority(unix.PRIO_PROCESS, tid, n)
		}
	}
}

// A program that raised its priority (RaisePriority, as the CLI does) comes
// before every thread of its browser, also those Chromium raises itself
// (as root, to BrowserMaxPriority); the browser starts at an ordinary
// priority, not the program's.
func TestBrowserNeverOutranks(t *testing.T) {
	shortTemp(t)
	const nice = BrowserMaxPriority - 2
	if err := RaisePriority(nice); err != nil {
		t.Skipf("this program may not raise its priority: %v", err)
	}
	t.Cleanup(func() { setNice(0) })
	for th, n := range niceOf([]int{os.Getpid()}) {
		if n != nice {
			t.Errorf("RaisePriority(%d) left %s at nice %d", nice, th, n)
		}
	}
	p := start(t, Config{Flags: BrowserFlags(true)})
	// The I/O thread is among those raised, as the browser starts.
	hasIO := func() bool {
		for th := range niceOf([]int{p.PID()}) {
			if strings.HasSuffix(th, " Chrome_IOThread") {
				return true
			}
		}
		return false
	}
	if !within(10*time.Second, hasIO) {
		t.Fatal("the browser has no I/O thread 10 s after its start")
	}
	threads := niceOf(groupOf(p.PID()))
	ordinary := 0
	for th, n := range threads {
		if n <= nice {
			t.Errorf("%s runs at nice %d, not below this program's %d", th, n, nice)
		}
		if n >= 0 {
			ordinary++
		}
	}
	if ordinary == 0 {
		t.Errorf("no thread of the browser at an ordinary priority: it inherited the program's")
	}
	t.Logf("%d threads of the browser, %d at nice 0 or lower, the others at most %d", len(threads), ordinary, BrowserMaxPriority)
}

// within reports whether cond holds within d, looking on a ticker.
func within(d time.Duration, cond func() bool) bool {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-deadline.C:
			return cond()
		case <-tick.C:
		}
	}
	return true
}
