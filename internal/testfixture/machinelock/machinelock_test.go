package machinelock

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

const helperEnv = "MACHINELOCK_TEST_HOLDER"

// TestMain: as a helper, the binary holds the machine shared until its
// stdin closes.
func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		if err := Shared(); err != nil {
			os.Exit(3)
		}
		os.Stdout.WriteString("held\n")
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestExclusiveWaitsForSharers: while another binary shares the machine,
// it cannot be held alone; when that binary exits (the kernel drops its
// lock), the waiting test gets it.
func TestExclusiveWaitsForSharers(t *testing.T) {
	holder := exec.Command(os.Args[0], "-test.run=^$")
	holder.Env = append(os.Environ(), helperEnv+"=1")
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
	f, err := open()
	if err != nil {
		t.Fatal(err)
	}
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
