package liveview

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/webagent/webagent/session/wire"
)

// The machine's registry of live views, for `webagent console`: a file per
// open View (Config.Register), mode 0600 in the user's private session
// folder (wire.Dir, 0700), removed when the View closes. A file whose
// process is gone (killed) is removed by the next List.

// Entry is one live view of this machine, as the console lists it.
type Entry struct {
	PID     int       `json:"pid"`
	ID      string    `json:"id"`
	Title   string    `json:"title"`
	Task    string    `json:"task,omitempty"`
	Started time.Time `json:"started"`
	// View and Control are the View's URLs: the file is the user's alone.
	View    string `json:"view"`
	Control string `json:"control"`
}

// registryDir is the folder of the registry's files.
func registryDir() (string, error) {
	d, err := wire.Dir()
	if err != nil {
		return "", err
	}
	d = filepath.Join(d, "live")
	if err := os.MkdirAll(d, 0o700); err != nil {
		return "", err
	}
	return d, nil
}

func (v *View) registryFile() string {
	d, err := registryDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, fmt.Sprintf("%d-%s.json", os.Getpid(), v.id))
}

// register writes (or rewrites, after a revoke) the View's file.
func (v *View) register() {
	if !v.srv.cfg.Register {
		return
	}
	view, control := v.URLs()
	e := Entry{PID: os.Getpid(), ID: v.id, Title: v.opts.Title, Task: v.opts.Task, Started: v.started, View: view, Control: control}
	b, _ := json.Marshal(e)
	f := v.registryFile()
	if f == "" {
		return
	}
	tmp := f + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		v.srv.log.Debug("registering a live view", "error", err)
		return
	}
	if err := os.Rename(tmp, f); err != nil {
		_ = os.Remove(tmp)
	}
}

// unregister removes the View's file.
func (v *View) unregister() {
	if !v.srv.cfg.Register {
		return
	}
	if f := v.registryFile(); f != "" {
		_ = os.Remove(f)
	}
}

// List returns the live views of this machine's user, oldest first, and
// removes the files of processes that are gone.
func List() ([]Entry, error) {
	// Where no view was ever registered there is nothing to list, and
	// listing leaves no folder behind.
	if _, err := os.Stat(filepath.Join(wire.DirPath(), "live")); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	d, err := registryDir()
	if err != nil {
		return nil, err
	}
	names, err := os.ReadDir(d)
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, n := range names {
		if !strings.HasSuffix(n.Name(), ".json") {
			continue
		}
		p := filepath.Join(d, n.Name())
		pid, _ := strconv.Atoi(strings.SplitN(n.Name(), "-", 2)[0])
		if pid <= 0 || !alive(pid) {
			_ = os.Remove(p)
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		var e Entry
		if json.Unmarshal(b, &e) == nil {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Started.Before(out[j].Started) })
	return out, nil
}

// alive reports whether the process pid runs.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
