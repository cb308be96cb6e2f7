package mcptask

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Work is what a task does: it runs under the task's context, which ends
// when the task is cancelled or the store closed, and returns the tool's
// result, or an error the task fails with (a *jsonrpc.Error keeps its
// code; any other is an internal error).
type Work func(ctx context.Context, r *Run) (*mcp.CallToolResult, error)

// Defaults of a Store's zero fields.
const (
	DefaultTTL          = time.Hour
	DefaultPollInterval = time.Second
)

// ErrClosed: the store takes no more tasks.
var ErrClosed = errors.New("mcptask: the store is closed")

// Store runs tasks and keeps their state. The zero Store is ready to use;
// Close ends every task and waits for them.
type Store struct {
	// TTL is how long a task is kept after it ends (DefaultTTL if 0).
	TTL time.Duration
	// PollInterval is the polling interval suggested to clients
	// (DefaultPollInterval if 0).
	PollInterval time.Duration

	once   sync.Once
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex
	tasks  map[string]*entry
	closed bool
}

// entry is one task. Its fields are guarded by the store's mu.
type entry struct {
	id              string
	status          Status
	message         string
	meta            map[string]any
	created, update time.Time
	ended           time.Time
	cancel          context.CancelFunc
	cancelRequested bool
	done            chan struct{}
	result          *mcp.CallToolResult
	err             *jsonrpc.Error
	asked           int
	pending         map[string]*question
}

type question struct {
	req    mcp.InputRequest
	answer chan mcp.InputResponse // buffered 1
}

func (s *Store) init() {
	s.once.Do(func() {
		s.ctx, s.cancel = context.WithCancel(context.Background())
		s.tasks = map[string]*entry{}
	})
}

// Start runs work as a new task and returns its first state. The task
// exists (Get finds it) before Start returns.
func (s *Store) Start(work Work) (*Task, error) {
	s.init()
	id, err := newID()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	s.expire(time.Now())
	ctx, cancel := context.WithCancel(s.ctx)
	now := time.Now()
	e := &entry{id: id, status: Working, created: now, update: now, cancel: cancel, done: make(chan struct{}), pending: map[string]*question{}}
	s.tasks[id] = e
	s.wg.Add(1)
	go s.run(ctx, e, work)
	return s.view(e), nil
}

func (s *Store) run(ctx context.Context, e *entry, work Work) {
	defer s.wg.Done()
	defer e.cancel()
	res, err := work(ctx, &Run{s: s, e: e, ctx: ctx})
	s.mu.Lock()
	defer s.mu.Unlock()
	defer close(e.done)
	now := time.Now()
	e.update, e.ended = now, now
	clear(e.pending)
	switch {
	case e.cancelRequested && ctx.Err() != nil:
		e.status = Cancelled
	case err != nil:
		e.status, e.message = Failed, err.Error()
		var we *jsonrpc.Error
		if !errors.As(err, &we) {
			we = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
		e.err = we
	default:
		e.status, e.result = Completed, res
	}
}

// Get returns the task's state; an unknown or expired id is a
// *jsonrpc.Error of code CodeInvalidParams.
func (s *Store) Get(_ context.Context, id string) (*Task, error) {
	s.init()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire(time.Now())
	e, err := s.find(id)
	if err != nil {
		return nil, err
	}
	return s.view(e), nil
}

// Done returns a channel closed when the task has ended, or nil for an
// unknown id.
func (s *Store) Done(id string) <-chan struct{} {
	s.init()
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.tasks[id]; e != nil {
		return e.done
	}
	return nil
}

// Update delivers answers to the task's outstanding questions. Answers to
// keys not outstanding (never asked, answered, withdrawn) are ignored.
func (s *Store) Update(_ context.Context, id string, answers mcp.InputResponseMap) error {
	s.init()
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.find(id)
	if err != nil {
		return err
	}
	for k, a := range answers {
		q := e.pending[k]
		if q == nil || a == nil {
			continue
		}
		delete(e.pending, k)
		q.answer <- a
	}
	s.touch(e)
	return nil
}

// Cancel asks the task to end: its context is cancelled, and it ends
// cancelled unless its work had finished meanwhile.
func (s *Store) Cancel(_ context.Context, id string) error {
	s.init()
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.find(id)
	if err != nil {
		return err
	}
	if !e.status.Terminal() {
		e.cancelRequested = true
		e.message = "cancelling"
		e.update = time.Now()
		e.cancel()
	}
	return nil
}

// Close cancels every task that runs and waits for them to end; the store
// takes no more tasks.
func (s *Store) Close() {
	s.init()
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
}

func (s *Store) find(id string) (*entry, error) {
	e := s.tasks[id]
	if e == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("no task %q: it never existed, or it ended more than %s ago and was discarded", id, cmp.Or(s.TTL, DefaultTTL))}
	}
	return e, nil
}

// expire discards the tasks that ended more than TTL ago.
func (s *Store) expire(now time.Time) {
	ttl := cmp.Or(s.TTL, DefaultTTL)
	for id, e := range s.tasks {
		if !e.ended.IsZero() && now.Sub(e.ended) > ttl {
			delete(s.tasks, id)
		}
	}
}

// touch keeps the status in step with the outstanding questions.
func (s *Store) touch(e *entry) {
	if e.status.Terminal() {
		return
	}
	e.status = Working
	if len(e.pending) > 0 {
		e.status = InputRequired
	}
	e.update = time.Now()
}

// view is e as the protocol shows it.
func (s *Store) view(e *entry) *Task {
	t := &Task{
		TaskID: e.id, Status: e.status, StatusMessage: e.message,
		CreatedAt: Stamp(e.created), LastUpdatedAt: Stamp(e.update),
		PollIntervalMs: cmp.Or(s.PollInterval, DefaultPollInterval).Milliseconds(),
		Result:         e.result, Error: e.err,
	}
	if len(e.meta) > 0 {
		t.Meta = maps.Clone(e.meta)
	}
	if !e.ended.IsZero() {
		ttl := e.ended.Add(cmp.Or(s.TTL, DefaultTTL)).Sub(e.created).Milliseconds()
		t.TTLMs = &ttl
	}
	if e.status == InputRequired {
		t.InputRequests = mcp.InputRequestMap{}
		for k, q := range e.pending {
			t.InputRequests[k] = q.req
		}
	}
	return t
}

// Stamp writes t as a Task's times are written: RFC 3339 in UTC.
func Stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// newID is 128 random bits, in hex.
func newID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("mcptask: a task id: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// Run is a task's handle for its work.
type Run struct {
	s   *Store
	e   *entry
	ctx context.Context
}

// ID is the task's id.
func (r *Run) ID() string { return r.e.id }

// Report sets the task's status message and the _meta its state carries
// (nil keeps the last).
func (r *Run) Report(message string, meta map[string]any) {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	r.e.message = message
	if meta != nil {
		r.e.meta = maps.Clone(meta)
	}
	r.e.update = time.Now()
}

// Ask puts a question to the client (an *mcp.ElicitParams, usually): the
// task is input_required, with the question among its inputRequests,
// until the client answers it with tasks/update. Ask returns the answer,
// or ctx's error when ctx ends first (or the task's does); the question is
// then withdrawn.
func (r *Run) Ask(ctx context.Context, req mcp.InputRequest) (mcp.InputResponse, error) {
	s, e := r.s, r.e
	s.mu.Lock()
	e.asked++
	key := "q" + strconv.Itoa(e.asked)
	q := &question{req: req, answer: make(chan mcp.InputResponse, 1)}
	e.pending[key] = q
	s.touch(e)
	s.mu.Unlock()
	// withdraw takes the question back, unless its answer came meanwhile.
	withdraw := func(err error) (mcp.InputResponse, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if e.pending[key] == q {
			delete(e.pending, key)
			s.touch(e)
		}
		select {
		case a := <-q.answer:
			return a, nil
		default:
			return nil, err
		}
	}
	select {
	case a := <-q.answer:
		return a, nil
	case <-ctx.Done():
		return withdraw(ctx.Err())
	case <-r.ctx.Done():
		return withdraw(r.ctx.Err())
	}
}
