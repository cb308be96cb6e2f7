package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
)

// Dir is the folder of the sessions' sockets, only its user's:
// $XDG_RUNTIME_DIR/webagent, else webagent-UID in the temp folder. It is
// created if missing; one that another user owns, or that others can
// enter, is refused.
func Dir() (string, error) {
	dir := filepath.Join(os.TempDir(), "webagent-"+strconv.Itoa(os.Getuid()))
	if rt := os.Getenv("XDG_RUNTIME_DIR"); rt != "" {
		dir = filepath.Join(rt, "webagent")
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", fmt.Errorf("session folder %s: %w", dir, err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", fmt.Errorf("session folder %s: %w", dir, err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || !ok || int(st.Uid) != os.Getuid() || fi.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("session folder %s is not a private folder of this user (mode %v); remove it or set XDG_RUNTIME_DIR", dir, fi.Mode())
	}
	return dir, nil
}

var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// CheckName checks a session or agent name: letters, digits, '.', '_'
// and '-', at most 64, starting with a letter or digit.
func CheckName(what, name string) error {
	if !validName.MatchString(name) {
		return fmt.Errorf("%s name %q: use letters, digits, '.', '_' and '-' (at most 64, starting with a letter or digit)", what, name)
	}
	return nil
}

// paths are a session's files in Dir.
type paths struct{ sock, lock, start, log string }

func pathsOf(dir, name string) paths {
	base := filepath.Join(dir, name)
	return paths{sock: base + ".sock", lock: base + ".lock", start: base + ".start", log: base + ".log"}
}
