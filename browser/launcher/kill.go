package launcher

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// Finding and stopping the processes of a browser: Chromium passes
// --user-data-dir to every helper process, and a profile folder is used by
// one browser at a time, so the folder names the browser's processes also
// after its main process is gone.

// ProcessesUsing lists the processes whose command line has
// --user-data-dir=dir.
func ProcessesUsing(dir string) []int {
	want := []byte("--user-data-dir=" + dir)
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		for arg := range bytes.SplitSeq(cmdline, []byte{0}) {
			if bytes.Equal(arg, want) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

// KillUsing sends SIGKILL to the processes whose command line has
// --user-data-dir=dir and returns how many it found.
func KillUsing(dir string) int {
	pids := ProcessesUsing(dir)
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	return len(pids)
}

// KillLeftovers kills the processes that still use the profile dir.
// Helpers can outlive the main process for a moment, or fork as it dies,
// so it looks until a few passes in a row find none (2 s at most).
func KillLeftovers(dir string) {
	deadline := time.Now().Add(2 * time.Second)
	for quiet := 0; quiet < 3 && time.Now().Before(deadline); {
		if n := KillUsing(dir); n == 0 {
			quiet++
		} else {
			quiet = 0
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Running reports whether the process pid exists and is not a zombie.
func Running(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// pid (comm) state ...: the state follows the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 || i+2 >= len(stat) {
		return true
	}
	return stat[i+2] != 'Z' && stat[i+2] != 'X'
}

// RemoveAll removes dir, retrying for a moment (3 s at most): a dying
// helper process can still write into it. Its owner file (sweep.go) goes
// last, so that a removal cut short by the program's exit leaves a folder
// the next start knows to sweep.
func RemoveAll(dir string) error {
	deadline := time.Now().Add(3 * time.Second)
	for {
		err := removeOwnerLast(dir)
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// removeOwnerLast removes what dir holds but its owner file, then the rest.
func removeOwnerLast(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	for _, e := range entries {
		if e.Name() == ownerFile {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return os.RemoveAll(dir)
}
