package launcher

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// reapers lists the running reapers whose work names dir.
func reapers(dir string) []string {
	var found []string
	envs, _ := filepath.Glob("/proc/[0-9]*/environ")
	for _, f := range envs {
		b, err := os.ReadFile(f)
		if err == nil && bytes.Contains(b, []byte(reapEnv+"=")) && bytes.Contains(b, []byte(dir)) && Running(pidOf(f)) {
			found = append(found, f)
		}
	}
	return found
}

func pidOf(procFile string) int {
	pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(procFile)))
	return pid
}

// Abandon returns at once, with the browser killed; its reaper then ends
// its helpers, removes its profile, its TMPDIR and the extra folders, and
// exits, leaving nothing, while this process runs on.
func TestAbandon(t *testing.T) {
	tmp := shortTemp(t)
	p := start(t, Config{Flags: BrowserFlags(true)})
	extra, err := MkdirTemp("webagent-downloads-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(extra, "report.pdf"), []byte("%PDF"), 0o600); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	if err := p.Abandon(extra); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(began); took > time.Second {
		t.Errorf("Abandon took %s: it must not wait for the clean-up", took)
	}
	select {
	case <-p.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the browser still runs 5 s after Abandon")
	}
	gone := func() bool {
		left, _ := filepath.Glob(filepath.Join(tmp, "*"))
		return len(left) == 0 && len(reapers(tmp)) == 0 && len(ProcessesUsing(p.Profile)) == 0
	}
	if !within(3*time.Second, gone) {
		left, _ := filepath.Glob(filepath.Join(tmp, "*"))
		t.Fatalf("3 s after Abandon: left %v, reapers %v, processes %v", left, reapers(tmp), ProcessesUsing(p.Profile))
	}
	if err := p.Close(); err != nil {
		t.Errorf("Close after Abandon: %v", err)
	}
}

// A reaper removes the folders it is given, whole, within its deadline; a
// folder already gone is no error.
func TestReapRemovesFolders(t *testing.T) {
	dir := t.TempDir()
	deadline := time.Now().Add(200 * time.Millisecond)
	began := time.Now()
	// A folder that exists and a path that does not: both fine.
	if err := reap(reapOrder{Dirs: []string{dir, filepath.Join(dir, "missing")}}, deadline); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s is still there", dir)
	}
	if took := time.Since(began); took > time.Second {
		t.Errorf("reap took %s, bounded by 200 ms", took)
	}
}

// MkdirTemp makes an owned folder, swept once its owner has ended; a
// prefix that is not webagent's is refused.
func TestMkdirTemp(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	d, err := MkdirTemp("webagent-downloads-")
	if err != nil {
		t.Fatal(err)
	}
	if owner, err := os.ReadFile(filepath.Join(d, ownerFile)); err != nil || string(owner) != selfOwner() {
		t.Errorf("owner %q (%v), want %q", owner, err, selfOwner())
	}
	if n := SweepLeftovers(os.TempDir()); n != 0 {
		t.Errorf("swept %d folders of a running owner", n)
	}
	if _, err := MkdirTemp("downloads-"); err == nil {
		t.Error("a prefix without webagent- was accepted")
	}
}

// sweepChildEnv makes the test binary TestSweepOnExit's program.
const sweepChildEnv = "WEBAGENT_LAUNCHER_TEST_SWEEP"

// sweepChild is a program that exits in the middle of its browser's start,
// as webagent run does when a signal cuts a start short: a browser
// running, a folder of its own, the watcher asked for, no Close. It prints
// the browser's profile.
func sweepChild() int {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := Start(ctx, Config{Flags: BrowserFlags(true)})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := MkdirTemp("webagent-downloads-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := SweepOnExit(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(p.Profile)
	return 0
}

// A program that exits without closing its browser, having asked for the
// watcher (SweepOnExit), leaves nothing moments later: no process using
// the profile, none of its folders, no watcher.
func TestSweepOnExit(t *testing.T) {
	tmp := shortTemp(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), sweepChildEnv+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the program: %v\n%s", err, stderr.String())
	}
	profile := strings.TrimSpace(string(out))
	if !strings.HasPrefix(profile, tmp) {
		t.Fatalf("the program's profile %q is not in %s", profile, tmp)
	}
	gone := func() bool {
		left, _ := filepath.Glob(filepath.Join(tmp, "*"))
		return len(left) == 0 && len(reapers(tmp)) == 0 && len(ProcessesUsing(profile)) == 0
	}
	if !within(5*time.Second, gone) {
		left, _ := filepath.Glob(filepath.Join(tmp, "*"))
		t.Fatalf("5 s after the program's exit: left %v, watchers %v, processes %v", left, reapers(tmp), ProcessesUsing(profile))
	}
}
