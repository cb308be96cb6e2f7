package launcher

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ProfilePrefix starts the name of each temporary profile folder.
const ProfilePrefix = "webagent-profile-"

// profile returns the user data folder of a browser about to start: a new
// temporary one, or dir, the user's persistent profile, made if missing and
// refused while another browser holds it. temp says which.
func profile(dir string) (path string, temp bool, err error) {
	if dir == "" {
		d, err := os.MkdirTemp("", ProfilePrefix)
		if err != nil {
			return "", false, fmt.Errorf("browser: creating the profile: %w", err)
		}
		if err := markOwner(d); err != nil {
			os.Remove(d)
			return "", false, fmt.Errorf("browser: creating the profile: %w", err)
		}
		return d, true, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", false, fmt.Errorf("browser: the profile folder %s: %w", dir, err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return "", false, &ConfigError{Problem: fmt.Sprintf("the profile folder %s cannot be created (%v)", abs, err), Fix: "pass a folder you can write to as --user-data-dir", Err: err}
	}
	if err := ProfileFree(abs); err != nil {
		return "", false, err
	}
	return abs, false, nil
}

// ProfileFree returns a *ConfigError when a running browser holds the
// profile folder: Chromium's SingletonLock names a live process of this
// machine, or a process runs with --user-data-dir=dir.
func ProfileFree(dir string) error {
	inUse := func(who string) error {
		return &ConfigError{
			Problem: fmt.Sprintf("the profile folder %s is in use by %s", dir, who),
			Fix:     "close that browser first, or pass another --user-data-dir (two browsers cannot share a profile)",
		}
	}
	if pids := ProcessesUsing(dir); len(pids) > 0 {
		return inUse(fmt.Sprintf("another browser (process %d)", pids[0]))
	}
	target, err := os.Readlink(filepath.Join(dir, "SingletonLock"))
	if err != nil {
		return nil // no lock: free
	}
	// The lock reads host-pid; a lock of a dead process, or of another
	// machine sharing the folder, is Chromium's to judge.
	i := strings.LastIndexByte(target, '-')
	if i < 0 {
		return nil
	}
	pid, err := strconv.Atoi(target[i+1:])
	host, _ := os.Hostname()
	if err != nil || target[:i] != host || !Running(pid) {
		return nil
	}
	return inUse(fmt.Sprintf("a running browser (process %d, from its SingletonLock)", pid))
}
