// Package wire is what a session's client and server share and nothing
// more: the request and reply that cross the socket, the sockets' folder
// and the names of sessions and agents. It imports only the standard
// library's ground floor, so a client built on it alone (cmd/webagent-lean)
// starts in a millisecond or two.
package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// Request is one command for a session.
type Request struct {
	// Agent names the agent whose tabs the command acts on; "" is
	// "default".
	Agent string `json:"agent,omitempty"`
	// Command is a page tool's name (click, goto, wait_for), or snapshot,
	// screenshot, live, status or close.
	Command string `json:"command"`
	// Args are the tool's arguments, as the model would send them.
	Args map[string]any `json:"args,omitempty"`
	// Confirmed says the user said yes to an action the action policy
	// wants confirmed.
	Confirmed bool `json:"confirmed,omitempty"`
	// Launch are the settings this command line gave that apply when a
	// session starts (a flag's name to a digest of its value, so that no
	// secret travels): a session that runs with other ones refuses the
	// command (Invalid, LAUNCH_SETTINGS) instead of ignoring them.
	Launch map[string]string `json:"launch,omitempty"`
}

// Status says how a command ended.
type Status string

const (
	// OK: the command did what it was asked.
	OK Status = "ok"
	// Failed: the action failed, or was refused, and Text says why.
	Failed Status = "failed"
	// TimedOut: the command ran out of its budget and was abandoned; the
	// page was recovered for the next command.
	TimedOut Status = "timeout"
	// Invalid: the request was wrong (an unknown command, bad arguments)
	// and nothing was done.
	Invalid Status = "invalid"
)

// Reply is a command's answer.
type Reply struct {
	Status Status `json:"status"`
	// Text is what the model would read: the outcome, or the snapshot.
	Text string `json:"text"`
	// Code names the kind of failure: ACTION_FAILED, STALE_REF,
	// POLICY_REFUSED, CONFIRM_NEEDED, TIMEOUT, BROWSER_FAILED, BAD_REQUEST,
	// PERSON_HAS_CONTROL (a person holds the browser in the live view).
	Code string `json:"code,omitempty"`
	// Tab is the agent's current tab after the command.
	Tab string `json:"tab,omitempty"`
	// PNG is the screenshot's image.
	PNG []byte `json:"png,omitempty"`
	// Took is how long the session worked on the command.
	Took time.Duration `json:"took_ns"`
}

// Dir is the folder of the sessions' sockets, only its user's:
// $XDG_RUNTIME_DIR/webagent, else webagent-UID in the temp folder. It is
// created if missing; one that another user owns, or that others can
// enter, is refused.
func Dir() (string, error) {
	dir := DirPath()
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

// DirPath is Dir's path, neither made nor checked: for a reader that
// must not leave a folder behind where there is none.
func DirPath() string {
	if rt := os.Getenv("XDG_RUNTIME_DIR"); rt != "" {
		return filepath.Join(rt, "webagent")
	}
	return filepath.Join(os.TempDir(), "webagent-"+strconv.Itoa(os.Getuid()))
}

// Socket is the path of session name's socket in dir.
func Socket(dir, name string) string { return filepath.Join(dir, name) + ".sock" }

// CheckName checks a session or agent name: letters, digits, '.', '_'
// and '-', at most 64, starting with a letter or digit.
func CheckName(what, name string) error {
	if !validName(name) {
		return fmt.Errorf("%s name %q: use letters, digits, '.', '_' and '-' (at most 64, starting with a letter or digit)", what, name)
	}
	return nil
}

// validName is ^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$, without a regexp to
// compile at start.
func validName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for i := range len(name) {
		c := name[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '_' && c != '.' && c != '-') {
			return false
		}
	}
	return true
}

// The exit statuses of a browser command, as webagent's.
const (
	ExitOK       = 0
	ExitFailed   = 1
	ExitUsage    = 2
	ExitTimedOut = 124
)

// Exit is the process's exit status for a reply's status.
func (r Reply) Exit() int {
	switch r.Status {
	case Failed:
		return ExitFailed
	case TimedOut:
		return ExitTimedOut
	case Invalid:
		return ExitUsage
	}
	return ExitOK
}

// Print prints r as `webagent browser` does, as text or (asJSON) one JSON
// object naming the session, the agent and the file a screenshot went
// to, and returns the exit status.
func (r Reply) Print(stdout, stderr io.Writer, session, agent string, asJSON bool, file string) int {
	code := r.Exit()
	if asJSON {
		out := map[string]any{"ok": r.Status == OK, "status": r.Status, "text": r.Text, "session": session, "agent": agent,
			"took_ms": r.Took.Milliseconds()}
		if r.Code != "" {
			out["code"] = r.Code
		}
		if r.Tab != "" {
			out["tab"] = r.Tab
		}
		if file != "" {
			out["file"] = file
		}
		b, _ := json.Marshal(out)
		fmt.Fprintln(stdout, string(b))
		return code
	}
	if code == ExitOK {
		if r.Text != "" {
			fmt.Fprintln(stdout, r.Text)
		}
		return code
	}
	fmt.Fprintf(stderr, "webagent: %s (%s)\n", r.Text, r.Code)
	return code
}

// WriteShot writes a screenshot to path, or to a new temporary file, and
// returns where it went.
func WriteShot(path string, png []byte) (string, error) {
	if path == "" {
		f, err := os.CreateTemp("", "webagent-screenshot-*.png")
		if err != nil {
			return "", err
		}
		path = f.Name()
		f.Close()
	}
	return path, os.WriteFile(path, png, 0o600)
}
