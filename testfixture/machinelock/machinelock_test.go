package machinelock

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

const helperEnv = "MACHINELOCK_TEST_HOLDER"

// TestMain: as a helper, the binary holds the file at $helperEnv shared
// until its stdin closes.
func TestMain(m *testing.M) {
	if path := os.Getenv(helperEnv); path != "" {
		f, err := os.Open(path)
		if err != nil || flock(f, syscall.LOCK_SH) != nil {
			os.Exit(3)
		}
		os.Stdout.WriteString("held\n")
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestExclusiveWaitsForSharers: while another binary shares the lock, it
// cannot be held alone; when that binary exits (the kernel drops its
// lock), the waiting test gets it. (On a file of its own: go.mod's lock is
// shared by the test binaries running beside this one.)
func TestExclusiveWaitsForSharers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	holder := exec.Command(os.Args[0], "-test.run=^$")
	holder.Env = append(os.Environ(), helperEnv+"="+path)
	stdin, err := holder.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = holder.Process.Kill(); _ = holder.Wait() }()
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "held\n" {
		t.Fatalf("the holder said %q, %v", line, err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); !errors.Is(err, syscall.EWOULDBLOCK) {
		t.Fatalf("held alone while another binary shares it: %v", err)
	}
	got := make(chan error, 1)
	go func() { got <- lockAlone(f, 30*time.Second) }()
	_ = stdin.Close() // the holder exits
	if err := <-got; err != nil {
		t.Fatalf("after the holder exited: %v", err)
	}
	if err := flock(f, syscall.LOCK_UN); err != nil {
		t.Fatal(err)
	}
}
