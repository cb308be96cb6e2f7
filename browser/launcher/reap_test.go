package launcher

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
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
