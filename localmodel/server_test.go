package localmodel

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/webagent/webagent/testfixture/tier"
)

// fakeInstall makes an install folder whose llama-server is the shell
// script body and whose model is an empty file.
func fakeInstall(t *testing.T, body string) Install {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{"bin", "models"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "bin", serverName), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "models", "tiny.gguf"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// groupGone waits, within 5 s, for the process group pgid to have no
// process left, and fails the test if one is.
func groupGone(t *testing.T, pgid int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for syscall.Kill(-pgid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("process group %d still has processes", pgid)
		}
		<-tick.C
	}
}

func TestFindSaysTheInstallCommand(t *testing.T) {
	dir := t.TempDir()
	_, err := Find(dir)
	if !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), InstallCommand) {
		t.Fatalf("Find of an empty folder: %v", err)
	}
	t.Setenv(DirEnv, dir)
	if DefaultDir() != dir {
		t.Errorf("DefaultDir with %s set: %s", DirEnv, DefaultDir())
	}
	in := fakeInstall(t, "exit 0\n")
	if in.Name != "tiny" || !strings.HasSuffix(in.Model, "tiny.gguf") {
		t.Errorf("Find: %+v", in)
	}
}

// A server that dies at once fails the start at once, with its output.
func TestStartReportsAServerThatEnds(t *testing.T) {
	in := fakeInstall(t, "echo 'error: unknown model architecture' >&2\nexit 1\n")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	_, err := Start(ctx, Config{Install: in})
	if err == nil || !strings.Contains(err.Error(), "unknown model architecture") {
		t.Fatalf("Start: %v", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the failed start took %s", d)
	}
}

// A server that never answers is ended, with everything it started, when
// the start's ctx ends: here a child that ignores SIGTERM.
func TestStartIsBoundedAndLeavesNothing(t *testing.T) {
	tier.Slow(t)
	pidFile := filepath.Join(t.TempDir(), "child")
	in := fakeInstall(t, "sh -c 'trap \"\" TERM; echo $$ > "+pidFile+"; while :; do sleep 1; done' &\ntrap '' TERM\nwait\n")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	start := time.Now()
	_, err := Start(ctx, Config{Install: in})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Start: %v", err)
	}
	// SIGTERM is ignored by both, so the grace runs out and SIGKILL ends
	// them.
	if d := time.Since(start); d > closeGrace+5*time.Second {
		t.Errorf("the bounded start took %s", d)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	pgid, err := syscall.Getpgid(pid)
	if err == nil {
		groupGone(t, pgid)
	}
	if syscall.Kill(pid, 0) == nil {
		t.Errorf("the server's child %d is still running", pid)
	}
}

func TestArgs(t *testing.T) {
	a := strings.Join(args(Config{Install: Install{Model: "/m.gguf"}, Parallel: 2, Threads: 1}, 4242, "smol"), " ")
	for _, want := range []string{"--model /m.gguf", "--alias smol", "--host 127.0.0.1", "--port 4242", "--ctx-size 16384", "--parallel 2", "--threads 1", "--n-predict 1024", "--jinja", "--offline"} {
		if !strings.Contains(a, want) {
			t.Errorf("args %q lack %q", a, want)
		}
	}
}
