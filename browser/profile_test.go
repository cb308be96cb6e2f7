package browser

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/webagent/webagent/browser/launcher"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

// A browser with a persistent profile that dies is relaunched on the same
// profile, which it finds free: the dead browser's helpers are gone first,
// and their clean-up does not touch the new browser. The profile is kept.
func TestKilledBrowserWithProfile(t *testing.T) {
	tier.Slow(t)
	dir := filepath.Join(t.TempDir(), "profile")
	b := launch(t, Options{UserDataDir: dir, Logger: testLogger()})
	url := servePage(t, `<title>Kill</title><p>about to die</p>`)
	open(t, b, url)
	if err := syscall.Kill(b.PID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	sess := b.sess
	waitFor(t, "the connection to be lost", 10*time.Second, func() bool { return !sess.alive() })
	// The relaunch runs in the snapshot's call, on a machine that may be
	// busy: a launch on a persistent profile takes longer than a fresh one.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	start := time.Now()
	s, err := b.Snapshot(ctx)
	if err != nil {
		t.Fatalf("snapshot after the kill (%v): %v", time.Since(start), err)
	}
	t.Logf("relaunched on the profile in %v", time.Since(start))
	if s.URL != url || len(s.Notices) == 0 || !strings.Contains(s.Notices[0], "relaunched") || b.sess.profile() != dir {
		t.Errorf("after the relaunch: %s %v, profile %s", s.URL, s.Notices, b.sess.profile())
	}
	do(t, b, contract.Action{Name: contract.ActScroll, Direction: "down"})
	if !launcher.Running(b.PID()) {
		t.Error("the relaunched browser is gone")
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "Default")); err != nil {
		t.Errorf("the profile was not kept: %v", err)
	}
}
