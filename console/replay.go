package console

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/webagent/webagent/internal/lockedproc"
)

// Bounds of the replays a console starts.
const (
	// DefaultReplayTimeout bounds one replay.
	DefaultReplayTimeout = 10 * time.Minute
	// MaxReplays is how many replays run at once.
	MaxReplays = 2
	// replayGrace is how long a replay told to end (SIGTERM: it closes
	// its browser) has before it is killed.
	replayGrace = 5 * time.Second
	// outputLines and lineBytes bound what the console keeps of a
	// replay's output.
	outputLines = 40
	lineBytes   = 400
	// keptReplays is how many replays, ended ones included, the page
	// lists.
	keptReplays = 20
)

// replays are the replays this console started.
type replays struct {
	command func(dir string) []string
	timeout time.Duration
	log     *slog.Logger

	mu     sync.Mutex
	seq    int
	jobs   []*job
	closed bool
	wg     sync.WaitGroup
}

func newReplays(command func(string) []string, timeout time.Duration, log *slog.Logger) *replays {
	return &replays{command: command, timeout: timeout, log: log}
}

// job is one replay: a child process.
type job struct {
	ID      int       `json:"id"`
	Run     string    `json:"run"` // the run's id
	Task    string    `json:"task"`
	Started time.Time `json:"started"`
	PID     int       `json:"pid"`

	cancel context.CancelFunc
	out    *lines

	mu       sync.Mutex
	running  bool
	exit     int
	timedOut bool
	ended    time.Time
}

// jobView is a replay as the page shows it.
type jobView struct {
	ID       int       `json:"id"`
	Run      string    `json:"run"`
	Task     string    `json:"task"`
	Started  time.Time `json:"started"`
	PID      int       `json:"pid"`
	Running  bool      `json:"running"`
	Exit     int       `json:"exit"`
	TimedOut bool      `json:"timed_out,omitempty"`
	Ended    time.Time `json:"ended,omitzero"`
	Output   []string  `json:"output"`
}

var errBusy = fmt.Errorf("%d replays run already: wait for one to end", MaxReplays)

// start replays the trace in dir as a child process, bounded by the
// timeout and ended with the console.
func (rs *replays) start(runID, dir, task string) (*job, error) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.closed {
		return nil, errors.New("the console is closing")
	}
	n := 0
	for _, j := range rs.jobs {
		if j.isRunning() {
			n++
		}
	}
	if n >= MaxReplays {
		return nil, errBusy
	}
	argv := rs.command(dir)
	ctx, cancel := context.WithTimeout(context.Background(), rs.timeout)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	out := &lines{}
	cmd.Stdout, cmd.Stderr = out, out
	// Its own process group (a terminal's Ctrl-C reaches the console, which
	// ends it), and SIGTERM when the console dies however it dies.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
	cmd.WaitDelay = replayGrace
	// Forked from a thread of its own (lockedproc): the parent-death
	// signal follows the forking thread, which a Chromium's end could end.
	ended := make(chan error, 1)
	if err := lockedproc.Start(cmd, func(err error) { ended <- err }); err != nil {
		cancel()
		return nil, fmt.Errorf("starting the replay: %w", err)
	}
	rs.seq++
	j := &job{ID: rs.seq, Run: runID, Task: task, Started: time.Now(), PID: cmd.Process.Pid, cancel: cancel, out: out, running: true}
	rs.jobs = append(rs.jobs, j)
	if len(rs.jobs) > keptReplays {
		rs.jobs = rs.jobs[len(rs.jobs)-keptReplays:]
	}
	rs.wg.Add(1)
	go func() {
		defer rs.wg.Done()
		defer cancel()
		err := <-ended
		j.mu.Lock()
		defer j.mu.Unlock()
		j.running, j.ended = false, time.Now()
		j.exit = cmd.ProcessState.ExitCode()
		j.timedOut = errors.Is(ctx.Err(), context.DeadlineExceeded)
		if j.timedOut {
			out.Write([]byte(fmt.Sprintf("console: the replay ran past its bound of %s and was ended\n", rs.timeout)))
		}
		rs.log.Debug("a replay ended", "replay", j.ID, "exit", j.exit, "error", err)
	}()
	return j, nil
}

func (j *job) isRunning() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.running
}

func (j *job) view() jobView {
	j.mu.Lock()
	defer j.mu.Unlock()
	return jobView{ID: j.ID, Run: j.Run, Task: j.Task, Started: j.Started, PID: j.PID, Running: j.running, Exit: j.exit,
		TimedOut: j.timedOut, Ended: j.ended, Output: j.out.last()}
}

// list is the replays, newest first.
func (rs *replays) list() []jobView {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	out := make([]jobView, 0, len(rs.jobs))
	for i := len(rs.jobs) - 1; i >= 0; i-- {
		out = append(out, rs.jobs[i].view())
	}
	return out
}

// byPID is the id of the running replay whose process is pid, or 0.
func (rs *replays) byPID(pid int) int {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for _, j := range rs.jobs {
		if j.PID == pid && j.isRunning() {
			return j.ID
		}
	}
	return 0
}

// close ends every replay (SIGTERM, then SIGKILL after the grace) and
// waits for them, within ctx.
func (rs *replays) close(ctx context.Context) {
	rs.mu.Lock()
	rs.closed = true
	for _, j := range rs.jobs {
		j.cancel()
	}
	rs.mu.Unlock()
	done := make(chan struct{})
	go func() {
		rs.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		rs.log.Warn("replays still ending as the console closes", "error", ctx.Err())
	}
}

// lines keeps the last lines a replay wrote, but those that hold a live
// view's URL (its tokens are the person's, and the page links the view).
type lines struct {
	mu      sync.Mutex
	partial []byte
	kept    []string
}

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.partial = append(l.partial, p...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			break
		}
		l.keep(string(l.partial[:i]))
		l.partial = l.partial[i+1:]
	}
	if len(l.partial) > lineBytes {
		l.keep(string(l.partial))
		l.partial = nil
	}
	return len(p), nil
}

// keep adds a line; l.mu is held.
func (l *lines) keep(s string) {
	if strings.HasPrefix(s, "live view") || strings.Contains(s, "?t=") {
		return
	}
	if len(s) > lineBytes {
		s = s[:lineBytes] + "…"
	}
	l.kept = append(l.kept, s)
	if len(l.kept) > outputLines {
		l.kept = l.kept[len(l.kept)-outputLines:]
	}
}

func (l *lines) last() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := append([]string(nil), l.kept...)
	if len(l.partial) > 0 {
		out = append(out, string(l.partial))
	}
	return out
}

// startReplay starts a replay of a past run, when the console may: a run
// that typed secrets is replayed from a terminal (its command is on its
// page).
func (s *Server) startReplay(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Replay == nil {
		http.Error(w, "this console starts no replay: run the command its page shows", http.StatusConflict)
		return
	}
	dir, t, code, msg := s.readRun(r.PathValue("id"))
	if t == nil {
		http.Error(w, msg, code)
		return
	}
	if len(t.Header.Secrets) > 0 {
		http.Error(w, fmt.Sprintf("the run typed secrets (%s): the console holds none; replay it from a terminal with %s",
			strings.Join(t.Header.Secrets, ", "), replayCommand(dir, t.Header.Secrets)), http.StatusConflict)
		return
	}
	j, err := s.jobs.start(runID(dir), dir, t.Header.Task)
	if errors.Is(err, errBusy) {
		http.Error(w, err.Error(), http.StatusTooManyRequests)
		return
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	writeJSON(w, http.StatusAccepted, j.view())
}
