package launcher

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Config says which Chromium to start, and how.
type Config struct {
	// Path is the Chromium or Chrome binary; if empty, Find's.
	Path string
	// UserDataDir is a persistent profile folder: made if missing, kept
	// by Close, and refused (a *ConfigError) while another browser holds
	// it. If empty, the browser gets a fresh temporary profile, removed by
	// Close.
	UserDataDir string
	// Flags are the browser's switches (BrowserFlags, ServerFlags, and the
	// caller's own). Start adds --user-data-dir, the DevTools switch
	// (--remote-debugging-pipe, or --remote-debugging-port=0 unless set)
	// and, as root, --no-sandbox.
	Flags Flags
	// Pipe runs the DevTools protocol over two pipes of this process
	// (Process.Pipe) instead of a port on loopback: no other program can
	// reach the browser. Process.URL is then empty.
	Pipe bool
	// Logger gets what Chromium prints, a line at a time at debug level;
	// nil logs nothing.
	Logger *slog.Logger
}

// Process is a running Chromium started by Start.
type Process struct {
	// URL is the browser's DevTools WebSocket address
	// (ws://127.0.0.1:PORT/devtools/browser/ID); empty with Config.Pipe.
	URL string
	// Profile is its user data folder.
	Profile string

	temp    bool   // Profile is temporary: Close removes it
	tempDir string // its TMPDIR (newChromeTemp); "" for the system's
	cmd     *exec.Cmd
	done    chan struct{} // closed when the process has exited
	out     *output       // what it prints
	outR    *os.File      // the pipe out reads
	path    string        // the binary
	// With Config.Pipe, the DevTools pipes: the browser reads toBrowser
	// (its fd 3) and writes fromBrowser (its fd 4).
	toBrowser, fromBrowser *os.File

	// display is the virtual display started for a browser with a window
	// where there was none; nil otherwise.
	display *display

	closeOnce sync.Once
	closeErr  error
}

// maxOutputLines bounds the lines of Chromium's output kept for the error
// of a start that failed.
const maxOutputLines = 20

// Start starts Chromium and waits, as long as ctx allows, for its DevTools
// address. ctx bounds only the start: the process runs until Close, or
// until this program ends, even by SIGKILL (its parent-death signal). It
// runs in a process group of its own, which Close kills whole.
//
// A browser with a window (no headless flag) where neither DISPLAY nor
// WAYLAND_DISPLAY is set runs on a virtual display: Start runs Xvfb for it
// alone, stopped by Close, or returns a *ConfigError wrapping ErrNoXvfb
// when Xvfb is not installed.
//
// A binary that exits without a DevTools address is a *ConfigError that
// quotes what it printed; a start that ctx ended returns ctx's error.
func Start(ctx context.Context, cfg Config) (*Process, error) {
	path, err := Find(cfg.Path)
	if err != nil {
		return nil, err
	}
	SweepLeftovers()
	var disp *display
	if needsDisplay(cfg.Flags) {
		if disp, err = startDisplay(ctx); err != nil {
			return nil, err
		}
	}
	dir, temp, err := profile(cfg.UserDataDir)
	if err != nil {
		disp.close()
		return nil, err
	}
	p := &Process{Profile: dir, temp: temp, path: path, done: make(chan struct{}), display: disp}
	tempDir, tempEnv := newChromeTemp()
	p.tempDir = tempDir
	p.cmd = exec.Command(path, arguments(cfg.Flags, dir, cfg.Pipe)...)
	// Its own process group, so that Close kills the helpers too; and the
	// parent-death signal, so that it dies with this process.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	p.cmd.Env = p.environment(tempEnv)
	// One pipe for stdout and stderr, read until every process holding it
	// has exited: the output of a browser that fails at once is read
	// whole (a pipe of exec.Cmd would be closed by Wait under the reader).
	r, w, err := os.Pipe()
	if err != nil {
		p.release()
		return nil, err
	}
	p.cmd.Stdout, p.cmd.Stderr = w, w
	var theirs []*os.File
	if cfg.Pipe {
		if theirs, err = p.pipes(); err != nil {
			r.Close()
			w.Close()
			p.release()
			return nil, err
		}
	}
	err = p.run()
	w.Close()
	for _, f := range theirs {
		f.Close()
	}
	if err != nil {
		r.Close()
		p.closePipes()
		p.release()
		return nil, fmt.Errorf("browser: starting %s: %w", path, err)
	}
	p.out, p.outR = newOutput(cfg.Logger), r
	go p.out.read(r)
	if temp {
		// For a sweep after this process is killed: the browser's
		// helpers, in its process group, may outlive it for a moment.
		_ = markGroup(dir, p.cmd.Process.Pid)
	}
	if cfg.Pipe {
		// The browser is ready when it answers on the pipe: the caller's
		// first command waits for it (and StartError says why it never
		// did).
		return p, nil
	}
	select {
	case u := <-p.out.url:
		p.URL = u
		return p, nil
	case <-p.out.done: // the output ended without an address
	case <-p.done: // it exited; a helper may still hold the output
	case <-ctx.Done():
		p.Close()
		return nil, fmt.Errorf("browser: starting %s: %w", path, ctx.Err())
	}
	p.Close() // also reads the output to its end
	return nil, startError(path, p.out.printed())
}

// arguments are Chromium's command line for the flags and the profile
// folder dir, with the DevTools protocol on pipes or on a port.
func arguments(f Flags, dir string, pipe bool) []string {
	args := f.args()
	args = append(args, "--user-data-dir="+dir)
	if _, ok := f["remote-debugging-port"]; pipe {
		args = append(args, "--remote-debugging-pipe")
	} else if !ok {
		args = append(args, "--remote-debugging-port=0")
	}
	if _, ok := f["no-sandbox"]; !ok && os.Geteuid() == 0 {
		// Chromium needs it as root (in a container, say): the container
		// is the sandbox.
		args = append(args, "--no-sandbox")
	}
	// The first page is blank, not a welcome page.
	return append(args, "about:blank")
}

// run starts the process and waits for it (runLocked).
func (p *Process) run() error { return runLocked(p.cmd, p.done) }

// runLocked starts cmd and waits for it on one locked OS thread, closing
// done when it has exited: the parent-death signal (Pdeathsig) fires when
// the thread that started the child ends, not the process, so that thread
// lives as long as the child does. The child also inherits the thread's
// priority, which keepOrdinary sets first. It returns Start's error.
func runLocked(cmd *exec.Cmd, done chan struct{}) error {
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		// The thread is this child's alone: it ends with the goroutine,
		// locked.
		restore := keepOrdinary()
		err := cmd.Start()
		restore()
		if err != nil {
			started <- err
			return
		}
		started <- nil
		_ = cmd.Wait()
		close(done)
	}()
	return <-started
}

// startError is the *ConfigError of a binary at path that exited without
// opening its DevTools endpoint, with the first of what it printed.
func startError(path, printed string) error {
	problem := fmt.Sprintf("%s did not start as a Chromium browser", path)
	if out := strings.Join(strings.Fields(printed), " "); out != "" {
		if r := []rune(out); len(r) > 200 {
			out = string(r[:199]) + "…"
		}
		problem += " (it printed: " + out + ")"
	}
	return &ConfigError{Problem: problem, Fix: chromeFix, Err: errors.New("chrome failed to start: " + printed)}
}

// pipes makes the DevTools pipes and gives the browser its ends as its
// file descriptors 3 (commands) and 4 (answers and events); it returns
// them, for the caller to close once the browser has started.
func (p *Process) pipes() (theirs []*os.File, err error) {
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		cmdR.Close()
		cmdW.Close()
		return nil, err
	}
	p.toBrowser, p.fromBrowser = cmdW, respR
	p.cmd.ExtraFiles = []*os.File{cmdR, respW}
	return []*os.File{cmdR, respW}, nil
}

// Pipe returns the DevTools pipes of a browser started with Config.Pipe:
// the browser's messages are read from fromBrowser, commands written to
// toBrowser (chromedp.NewPipeConn speaks over them). Close closes them.
func (p *Process) Pipe() (fromBrowser io.ReadCloser, toBrowser io.WriteCloser) {
	return p.fromBrowser, p.toBrowser
}

// closePipes closes this process's ends of the DevTools pipes.
func (p *Process) closePipes() {
	for _, f := range []*os.File{p.toBrowser, p.fromBrowser} {
		if f != nil {
			f.Close()
		}
	}
}

// StartError says why a browser that was started but never answered did
// not: when it exits within a moment (its DevTools connection broke), a
// *ConfigError quoting what it printed, as Start gives for a browser on a
// port; nil while it runs.
func (p *Process) StartError() error {
	t := time.NewTimer(outputDrain)
	defer t.Stop()
	select {
	case <-p.done:
	case <-t.C:
		return nil
	}
	p.Close() // reads the output to its end
	return startError(p.path, p.out.printed())
}

// PID is the browser process's id.
func (p *Process) PID() int { return p.cmd.Process.Pid }

// Done is closed when the browser process has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Alive reports whether the browser process still runs.
func (p *Process) Alive() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// Close kills the browser and its helper processes, waits for them to exit
// and removes its temporary profile and its TMPDIR; a persistent profile is
// kept. It is idempotent. A browser that should write its profile first is
// asked to close (Browser.close over its DevTools connection) before Close.
//
// The folders are removed while the killed processes die (on a busy
// machine the kernel takes a few hundred milliseconds to end a browser):
// a killed process runs no more code of its own, and a write it had under
// way when the signal came is met by RemoveAll's retries. A program that
// exits before Close returns (at its bound) leaves the processes killed;
// what remains of the folders is removed by the next Start
// (SweepLeftovers).
func (p *Process) Close() error {
	p.closeOnce.Do(func() {
		if p.cmd.Process != nil {
			_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
			_ = p.cmd.Process.Kill()
		}
		if p.temp {
			// Helpers outside the group, found by their profile.
			KillUsing(p.Profile)
		}
		err := p.removeFolders()
		<-p.done
		// Helpers can outlive the main process for a moment.
		KillLeftovers(p.Profile)
		if err == nil {
			// What a dying helper wrote after the removal.
			err = p.removeFolders()
		}
		p.closeErr = err
		p.display.close()
		p.closePipes()
		p.endOutput()
	})
	return p.closeErr
}

// outputDrain bounds the wait for the end of the output once the browser
// and its helpers are gone: only a process outside its group (none is
// known) could still hold the pipe.
const outputDrain = time.Second

// endOutput waits for the output to end, now that every process printing
// it is gone, so that its last lines are read; then closes the pipe.
func (p *Process) endOutput() {
	if p.out == nil {
		return
	}
	t := time.NewTimer(outputDrain)
	defer t.Stop()
	select {
	case <-p.out.done:
	case <-t.C:
	}
	p.outR.Close()
	<-p.out.done
}

// environment is the browser's: this process's, with its own TMPDIR
// (tempEnv, if set) and the virtual display's DISPLAY; nil, this
// process's as it is, when neither is set.
func (p *Process) environment(tempEnv string) []string {
	var extra []string
	if tempEnv != "" {
		extra = append(extra, tempEnv)
	}
	if p.display != nil {
		extra = append(extra, p.display.env())
	}
	if extra == nil {
		return nil
	}
	return append(os.Environ(), extra...)
}

// release undoes a start that failed before the browser ran: the virtual
// display and the folders.
func (p *Process) release() {
	p.display.close()
	_ = p.removeFolders()
}

// removeFolders removes the temporary profile and TMPDIR.
func (p *Process) removeFolders() error {
	var errs []error
	if p.temp {
		if err := RemoveAll(p.Profile); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("browser: removing the profile: %w", err))
		}
	}
	if err := removeTemp(p.tempDir); err != nil {
		errs = append(errs, fmt.Errorf("browser: removing its temporary folder: %w", err))
	}
	return errors.Join(errs...)
}

// Persistent reports whether the process runs on the user's persistent
// profile (Config.UserDataDir), which Close keeps.
func (p *Process) Persistent() bool { return !p.temp }
