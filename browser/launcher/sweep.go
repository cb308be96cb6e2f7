package launcher

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Folders left by a process that ended before its clean-up did: a program
// that must exit at its bound (the CLI) kills its browser and goes, and the
// browser's temporary folders may outlast it. Each folder names its owner
// in a file (ownerFile: the owning process's id and start time, which tell
// it from a later process with the same id); the next Start of any
// webagent on the machine removes the folders whose owner is gone and that
// no process uses.

// ownerFile names a temporary folder's owner.
const ownerFile = "webagent-owner"

// markOwner writes this process as dir's owner.
func markOwner(dir string) error {
	return os.WriteFile(filepath.Join(dir, ownerFile), []byte(selfOwner()), 0o600)
}

// selfOwner is this process's owner line.
func selfOwner() string {
	return fmt.Sprintf("%d %s\n", os.Getpid(), startTime(os.Getpid()))
}

// startTime is the start time of process pid (field 22 of its stat, in
// clock ticks since boot), "" when it does not run.
func startTime(pid int) string {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return ""
	}
	// After "pid (comm) ": state is field 3, start time field 22.
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 20 {
		return ""
	}
	return f[19]
}

// ownerGone reports whether dir's owner has ended. A folder with no owner
// file (being made, or left by a version that wrote none) is not judged.
func ownerGone(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, ownerFile))
	if err != nil {
		return false
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return false
	}
	pid, err := strconv.Atoi(f[0])
	if err != nil || pid <= 0 {
		return false
	}
	return !Running(pid) || startTime(pid) != f[1]
}

// sweepWait bounds the wait for the processes of a leftover profile to end.
const sweepWait = 3 * time.Second

// SweepLeftovers removes the temporary folders (those of Start,
// ProfilePrefix and TempPrefix, and those of MkdirTemp) in the folders
// bases (by default the system's temporary folder and /tmp, where they are
// made) whose owner has ended, killing any process still using them first.
// It returns how many it removed. Start calls it.
func SweepLeftovers(bases ...string) int {
	if len(bases) == 0 {
		bases = sweepBases()
	}
	n := 0
	for _, base := range bases {
		dirs, _ := filepath.Glob(filepath.Join(base, "webagent-*"))
		for _, d := range dirs {
			if !ownerGone(d) {
				continue
			}
			if strings.HasPrefix(filepath.Base(d), ProfilePrefix) {
				// Killed and gone before the removal: a helper still
				// dying could write into the folder meanwhile.
				deadline := time.Now().Add(sweepWait)
				endGroup(d, deadline)
				endUsing(d, deadline)
			}
			// The owner file last: a removal cut short leaves a folder
			// the next sweep still knows as a leftover.
			if removeOwnerLast(d) == nil {
				n++
			}
		}
	}
	return n
}

// MkdirTemp makes a temporary folder named prefix followed by random
// characters in the system's temporary folder, owned by this process: a
// folder the program could not remove before it ended (Abandon's reaper
// never ran: SIGKILL) is removed by the next Start's sweep. prefix starts
// with "webagent-".
func MkdirTemp(prefix string) (string, error) {
	if !strings.HasPrefix(prefix, "webagent-") {
		return "", fmt.Errorf("launcher: MkdirTemp: the prefix %q does not start with webagent-", prefix)
	}
	d, err := os.MkdirTemp("", prefix)
	if err != nil {
		return "", err
	}
	if err := markOwner(d); err != nil {
		os.Remove(d)
		return "", err
	}
	return d, nil
}

// sweepBases are the folders the temporary folders are made in.
func sweepBases() []string {
	bases := []string{os.TempDir()}
	if abs, err := filepath.Abs(os.TempDir()); err != nil || abs != "/tmp" {
		bases = append(bases, "/tmp")
	}
	return bases
}

// groupFile names the process group of a temporary profile's browser.
const groupFile = "webagent-group"

// markGroup writes the process group of the browser using the profile.
func markGroup(dir string, pgid int) error {
	return os.WriteFile(filepath.Join(dir, groupFile), []byte(strconv.Itoa(pgid)+"\n"), 0o600)
}

// endGroup kills, and waits by deadline for, the processes left of the
// process group of the profile's browser: its helpers (whose command lines
// need not name the profile) may flush into it as they exit. Only
// Chromium's processes of that group are killed (a helper's --type=, or
// the profile on its command line), not another program that took the
// group's number since.
func endGroup(dir string, deadline time.Time) {
	b, err := os.ReadFile(filepath.Join(dir, groupFile))
	if err != nil {
		return
	}
	pgid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pgid <= 1 {
		return
	}
	for time.Now().Before(deadline) {
		pids := groupMembers(pgid, dir)
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			waitKilled(pid, deadline)
		}
	}
}

// groupMembers lists the Chromium processes of process group pgid.
func groupMembers(pgid int, dir string) []int {
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	var pids []int
	for _, f := range procs {
		stat, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(string(stat[i+1:]))
		if len(fields) < 3 || fields[2] != strconv.Itoa(pgid) {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
		cmdline, _ := os.ReadFile(filepath.Join(filepath.Dir(f), "cmdline"))
		if pid > 0 && pid != os.Getpid() && (bytes.Contains(cmdline, []byte("--type=")) || bytes.Contains(cmdline, []byte("--user-data-dir="+dir))) {
			pids = append(pids, pid)
		}
	}
	return pids
}
