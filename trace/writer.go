package trace

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/secret"
)

// Options configure a Writer.
type Options struct {
	// Masker hides the run's secrets in everything written. Required when
	// the task has secrets.
	Masker *secret.Masker
	// Shots takes a screenshot after each step (package browser's
	// Browser); nil records none. When it is a JPEGShooter, the browser
	// encodes the JPEG; else its PNG is converted here.
	Shots contract.Screenshotter
	// Activity gives each step's console messages and network requests;
	// nil records none. When it is also a contract.BlockedLog (a
	// read-only browser), each step records the requests it stopped.
	Activity contract.Activity
	// HAR also writes trace.har with every request and its headers.
	HAR bool
	// MaxShotWidth bounds a screenshot's width in pixels (default 800): a
	// wider viewport is scaled down by a whole factor.
	MaxShotWidth int
	// JPEGQuality is 1 to 100 (default 60).
	JPEGQuality int
	// ShotTimeout bounds one screenshot (default 5s).
	ShotTimeout time.Duration
}

// JPEGShooter is implemented by browsers that capture the viewport as a
// JPEG themselves, at most maxWidth wide (package browser): far cheaper
// than decoding a PNG.
type JPEGShooter interface {
	ScreenshotJPEG(ctx context.Context, maxWidth, quality int) ([]byte, error)
}

// Defaults of Options.
const (
	DefaultMaxShotWidth = 800
	DefaultJPEGQuality  = 60
	DefaultShotTimeout  = 5 * time.Second
)

// Writer writes a trace as the run goes. It implements [agent.Tracer]; its
// methods are safe for concurrent use (an abandoned iteration may still
// report its model call). End must be called once the run is over: it
// waits for the screenshots under way.
type Writer struct {
	dir  string
	opts Options

	mu    sync.Mutex
	f     *os.File
	buf   *bufio.Writer
	err   error // the first write error; later writes are dropped
	tools []contract.ToolDef
	har   []contract.NetEntry
	steps int

	pending *pendingShot   // the last step, until its screenshot is taken
	shots   sync.WaitGroup // screenshots under way
}

// Create makes dir (it must be empty or not exist) and writes the header.
func Create(dir string, h Header, opts Options) (*Writer, error) {
	if opts.MaxShotWidth <= 0 {
		opts.MaxShotWidth = DefaultMaxShotWidth
	}
	if opts.JPEGQuality <= 0 || opts.JPEGQuality > 100 {
		opts.JPEGQuality = DefaultJPEGQuality
	}
	if opts.ShotTimeout <= 0 {
		opts.ShotTimeout = DefaultShotTimeout
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("trace folder %s is not empty: give a new or empty folder, so that no other run's files mix with this one", dir)
	}
	if err := os.MkdirAll(filepath.Join(dir, ShotsDir), 0o755); err != nil {
		return nil, fmt.Errorf("trace folder: %w", err)
	}
	f, err := os.Create(filepath.Join(dir, EventsFile))
	if err != nil {
		return nil, fmt.Errorf("trace folder: %w", err)
	}
	w := &Writer{dir: dir, opts: opts, f: f, buf: bufio.NewWriterSize(f, 64<<10)}
	h.Type, h.Version = TypeHeader, Version
	if h.Started.IsZero() {
		h.Started = time.Now()
	}
	w.mu.Lock()
	w.write(h)
	err = w.flush()
	w.mu.Unlock()
	if err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// TaskHeader is the header of a trace of task, and the masker of its
// secrets (Options.Masker): the instruction and URL masked, the secrets by
// name. model names the model.
func TaskHeader(task agent.Task, model ModelInfo) (Header, *secret.Masker) {
	m := secret.NewMasker(task.Secrets)
	var names []string
	for k := range task.Secrets {
		name, _, _ := secret.ParseKey(k)
		names = append(names, name)
	}
	slices.Sort(names)
	return Header{Task: m.Mask(task.Instruction), URL: m.Mask(task.URL), Model: model, Secrets: slices.Compact(names)}, m
}

// Dir is the trace's folder.
func (w *Writer) Dir() string { return w.dir }

// TraceModel records one model call (agent.Tracer).
func (w *Writer) TraceModel(mc agent.ModelCall) {
	ev := ModelEvent{
		Type: TypeModel, Iteration: mc.Iteration, Started: mc.Started, MS: mc.Duration.Milliseconds(),
		Observation: mc.Observation, Page: mc.Page, Replayed: mc.Replayed,
		Request: RequestRecord{Messages: mc.Request.Messages},
		Reply: ReplyRecord{Content: mc.Reply.Content, Reasoning: mc.Reply.Reasoning,
			ToolCalls: mc.Reply.ToolCalls, Usage: mc.Reply.Usage},
	}
	for _, m := range mc.Request.Messages {
		ev.Request.Images += len(m.Images)
	}
	if mc.Err != nil {
		ev.Error = mc.Err.Error()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !slices.EqualFunc(w.tools, mc.Request.Tools, sameTool) {
		w.tools = mc.Request.Tools
		ev.Request.Tools = mc.Request.Tools
	}
	w.write(ev)
	w.err = errors.Join(w.err, w.flush())
}

func sameTool(a, b contract.ToolDef) bool {
	return a.Name == b.Name && a.Description == b.Description && string(a.Parameters) == string(b.Parameters)
}

// TraceStep records an ended step with its console and network activity
// (agent.Tracer). Its screenshot is taken when the next snapshot has been
// taken (TraceSnapshot), while the model thinks, or by End for the last
// step: the page is then as the step left it, and the step costs the loop
// no capture time.
func (w *Writer) TraceStep(_ context.Context, s agent.Step) {
	ev := StepEvent{Type: TypeStep, Iteration: s.Iteration, Step: s}
	if w.opts.Activity != nil {
		ev.Console, ev.Network = w.opts.Activity.TakeActivity()
	}
	if bl, ok := w.opts.Activity.(contract.BlockedLog); ok {
		ev.Blocked = bl.TakeBlocked()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.steps++
	if w.opts.HAR {
		w.har = append(w.har, ev.Network...)
	}
	w.write(ev)
	w.err = errors.Join(w.err, w.flush())
	if w.opts.Shots != nil {
		w.pending = &pendingShot{iteration: s.Iteration, seq: w.steps}
	}
}

// pendingShot is a step whose screenshot is still to be taken.
type pendingShot struct{ iteration, seq int }

// TraceSnapshot takes the previous step's screenshot in the background,
// under ShotTimeout (agent.Tracer): the browser runs it before the
// iteration's actions.
func (w *Writer) TraceSnapshot(ctx context.Context, _ int) {
	w.mu.Lock()
	p := w.pending
	w.pending = nil
	w.mu.Unlock()
	if p == nil {
		return
	}
	ctx = context.WithoutCancel(ctx) // the iteration may end first
	w.shots.Go(func() { w.shoot(ctx, p) })
}

// shoot takes a step's screenshot and records it as a shot event.
func (w *Writer) shoot(ctx context.Context, p *pendingShot) {
	ev := ShotEvent{Type: TypeShot, Iteration: p.iteration}
	shot, err := w.capture(ctx)
	if err == nil {
		name := fmt.Sprintf("%s/%04d.jpg", ShotsDir, p.seq)
		if err = os.WriteFile(filepath.Join(w.dir, name), shot, 0o644); err == nil {
			ev.Screenshot = name
		}
	}
	if err != nil {
		ev.Error = err.Error()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.write(ev)
	w.err = errors.Join(w.err, w.flush())
}

// capture takes a JPEG of the viewport, bounded by ShotTimeout.
func (w *Writer) capture(ctx context.Context) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, w.opts.ShotTimeout)
	defer cancel()
	if j, ok := w.opts.Shots.(JPEGShooter); ok {
		shot, err := j.ScreenshotJPEG(ctx, w.opts.MaxShotWidth, w.opts.JPEGQuality)
		if err != nil {
			return nil, err
		}
		return boundJPEG(shot, w.opts.JPEGQuality)
	}
	png, err := w.opts.Shots.Screenshot(ctx)
	if err != nil {
		return nil, err
	}
	return toJPEG(png, w.opts.MaxShotWidth, w.opts.JPEGQuality)
}

// End takes the last step's screenshot, records how the run ended, writes
// the viewer (and the HAR) and closes the trace. It returns the first error
// the trace met. res may be nil (the run did not end).
func (w *Writer) End(ctx context.Context, res *agent.Result) error {
	w.shots.Wait()
	w.mu.Lock()
	p := w.pending
	w.pending = nil
	w.mu.Unlock()
	if p != nil {
		w.shoot(ctx, p)
	}
	w.mu.Lock()
	if w.f == nil {
		w.mu.Unlock()
		return errors.New("trace: already ended")
	}
	if res != nil {
		r := *res
		r.Steps = nil
		w.write(EndEvent{Type: TypeEnd, Result: r})
	}
	err := errors.Join(w.err, w.flush(), w.f.Close())
	w.f = nil
	har := w.har
	w.mu.Unlock()
	if w.opts.HAR {
		err = errors.Join(err, writeHAR(filepath.Join(w.dir, HARFile), har, w.mask))
	}
	if err != nil {
		return fmt.Errorf("trace %s: %w", w.dir, err)
	}
	return WriteViewer(w.dir)
}

// write appends one event, masked. The caller holds mu.
func (w *Writer) write(ev any) {
	if w.err != nil || w.f == nil {
		return
	}
	b, err := json.Marshal(ev)
	if err != nil {
		w.err = err
		return
	}
	line := w.mask(string(b))
	if !json.Valid([]byte(line)) {
		// A secret that spans JSON syntax: keep the event, without its
		// text.
		b, _ = json.Marshal(map[string]any{"type": "masked", "note": "an event was dropped: masking a secret broke its JSON"})
		line = string(b)
	}
	if _, err := w.buf.WriteString(line + "\n"); err != nil {
		w.err = err
	}
}

func (w *Writer) flush() error {
	if w.f == nil {
		return nil
	}
	return w.buf.Flush()
}

func (w *Writer) mask(s string) string {
	if w.opts.Masker == nil {
		return s
	}
	return w.opts.Masker.Mask(s)
}

var _ agent.Tracer = (*Writer)(nil)
