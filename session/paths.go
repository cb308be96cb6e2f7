package session

import (
	"path/filepath"

	"github.com/webagent/webagent/session/wire"
)

// Dir is the folder of the sessions' sockets, only its user's:
// $XDG_RUNTIME_DIR/webagent, else webagent-UID in the temp folder. It is
// created if missing; one that another user owns, or that others can
// enter, is refused.
func Dir() (string, error) { return wire.Dir() }

// CheckName checks a session or agent name: letters, digits, '.', '_'
// and '-', at most 64, starting with a letter or digit.
func CheckName(what, name string) error { return wire.CheckName(what, name) }

// paths are a session's files in Dir.
type paths struct{ sock, lock, start, log string }

func pathsOf(dir, name string) paths {
	base := filepath.Join(dir, name)
	return paths{sock: wire.Socket(dir, name), lock: base + ".lock", start: base + ".start", log: base + ".log"}
}
