package launcher

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A browser with a window on a machine without a display (a server, a
// container) gets a virtual one: Start runs Xvfb, gives Chromium alone its
// DISPLAY, and Close stops it with the browser.

// ErrNoXvfb is the cause of the *ConfigError of a browser with a window
// asked for where there is no display and Xvfb is not installed.
var ErrNoXvfb = errors.New("browser: no display, and Xvfb is not installed")

// xvfbScreen is the virtual display's screen: a common desktop's.
const xvfbScreen = "1920x1080x24"

// xvfbStop bounds the wait for Xvfb to exit after SIGTERM (it removes its
// lock file and socket) before it is killed.
const xvfbStop = 2 * time.Second

// display is a virtual display started for one browser.
type display struct {
	name string // e.g. ":99"
	cmd  *exec.Cmd
	done chan struct{} // closed when Xvfb has exited
	once sync.Once
}

// needsDisplay reports whether a browser with the flags opens a window
// and this process has no display to open it on.
func needsDisplay(f Flags) bool {
	h, ok := f["headless"]
	return (!ok || h == false) && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == ""
}

// startDisplay starts Xvfb on a free display number, which Xvfb picks
// and writes to a pipe (-displayfd), and waits for it within ctx. Xvfb
// runs in a process group of its own and dies with this process.
func startDisplay(ctx context.Context) (*display, error) {
	path, err := exec.LookPath("Xvfb")
	if err != nil {
		return nil, &ConfigError{
			Problem: "a browser with a window needs a display: neither DISPLAY nor WAYLAND_DISPLAY is set, and Xvfb (a virtual display) is not installed",
			Fix:     "install it with `apt-get install xvfb` (or run ./setup.sh), run on a desktop, or run without --headful",
			Err:     ErrNoXvfb,
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("browser: starting Xvfb: %w", err)
	}
	defer r.Close()
	d := &display{done: make(chan struct{})}
	// -displayfd 3: ExtraFiles[0] is the child's fd 3.
	d.cmd = exec.Command(path, "-displayfd", "3", "-screen", "0", xvfbScreen, "-nolisten", "tcp")
	d.cmd.ExtraFiles = []*os.File{w}
	d.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	err = runLocked(d.cmd, d.done)
	w.Close()
	if err != nil {
		return nil, fmt.Errorf("browser: starting %s: %w", path, err)
	}
	name := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		name <- strings.TrimSpace(line)
	}()
	select {
	case n := <-name:
		if n == "" {
			d.close()
			return nil, &ConfigError{Problem: path + " exited without opening a display", Fix: "check that Xvfb runs on this machine (`Xvfb -displayfd 1`), or run without --headful"}
		}
		d.name = ":" + n
		return d, nil
	case <-ctx.Done():
		d.close() // Xvfb's exit ends the read
		return nil, fmt.Errorf("browser: starting Xvfb: %w", ctx.Err())
	}
}

// env is the environment of a program that should use the display.
func (d *display) env() string { return "DISPLAY=" + d.name }

// close stops Xvfb: asked first, so that it removes its lock file and
// socket, then killed. It is idempotent; nil does nothing.
func (d *display) close() {
	if d == nil {
		return
	}
	d.once.Do(func() {
		_ = syscall.Kill(-d.cmd.Process.Pid, syscall.SIGTERM)
		t := time.NewTimer(xvfbStop)
		defer t.Stop()
		select {
		case <-d.done:
			return
		case <-t.C:
		}
		_ = syscall.Kill(-d.cmd.Process.Pid, syscall.SIGKILL)
		<-d.done
	})
}
