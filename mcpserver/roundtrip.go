package mcpserver

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent/webagent/agent"
)

// Multi round-trip requests (SEP-2322). From protocol 2026-07-28 a server
// may not send elicitation/create while it serves a call: a call that
// needs a person's answer returns its questions as input requests, with a
// request state, and the client calls again with the answers and the
// state. A run (run_task's) outlives its call's rounds: between them it
// goes on in the server, waiting for the answer as it waits for any
// person's (each wait within the human timeout, as the agent bounds it).
// The retry that carries the state delivers the answers to the run and
// waits for what it does next: another question (another round), or its
// result.
//
// A request state is the run's round id, 128 random bits, with its expiry
// and the tool's name, sealed with an HMAC under a key drawn when the
// server starts: a state this server did not make, an expired one, or one
// used already is refused, and nothing runs. Each state is good for one
// retry and for the human timeout after it was given: a run whose client
// has not come back by then is cancelled, as a call whose client went
// away is, and ends with its browser closed; its questions were
// unanswered, as any person's that does not come in time.

// rounds are the runs that go on across their calls' rounds.
type rounds struct {
	srv *Server

	once   sync.Once
	key    []byte
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup // one per run

	mu      sync.Mutex
	closed  bool
	waiting map[string]*roundRun // between rounds, by the id of their state
}

// roundRun is one run. Its fields after done are guarded by rounds.mu.
type roundRun struct {
	rs        *rounds
	tool      string
	canElicit bool
	cancel    context.CancelFunc
	done      chan struct{} // closed when the run has ended

	result    *mcp.CallToolResult
	ended     bool
	changed   chan struct{} // closed, and made anew, at a question and at the end
	asked     int
	pending   map[string]*roundQuestion // the questions not answered yet, by key
	caller    *roundCaller              // the call that waits on the run; nil between rounds
	id        string                    // the outstanding state's id; "" while a call waits
	expiry    *time.Timer
	abandoned bool     // its state expired while it ran
	live      *runView // its live view, whose URLs each round carries
}

type roundQuestion struct {
	req    *mcp.ElicitParams
	answer chan mcp.InputResponse // buffered 1
}

// roundCaller is the call a run reports its progress to.
type roundCaller struct {
	ctx   context.Context
	ss    *mcp.ServerSession
	token any
}

func (rs *rounds) init() {
	rs.once.Do(func() {
		rs.key = make([]byte, 32)
		_, _ = rand.Read(rs.key) // never fails (crypto/rand)
		rs.ctx, rs.cancel = context.WithCancel(context.Background())
		rs.waiting = map[string]*roundRun{}
	})
}

// usesRounds reports whether a call's client takes its questions as multi
// round-trip requests (protocol 2026-07-28 or later).
func usesRounds(req *mcp.CallToolRequest) bool {
	p := req.Session.InitializeParams()
	return p != nil && p.ProtocolVersion >= statelessProtocol
}

// start runs work in the server and answers the call with its first
// question or its result.
func (rs *rounds) start(ctx context.Context, req *mcp.CallToolRequest, work func(context.Context, *roundRun) *mcp.CallToolResult) (*mcp.CallToolResult, error) {
	rs.init()
	caps := req.ClientCapabilities()
	rctx, cancel := context.WithCancel(rs.ctx)
	r := &roundRun{
		rs: rs, tool: req.Params.Name, canElicit: caps != nil && caps.Elicitation != nil,
		cancel: cancel, done: make(chan struct{}), changed: make(chan struct{}), pending: map[string]*roundQuestion{},
	}
	rs.mu.Lock()
	if rs.closed {
		rs.mu.Unlock()
		cancel()
		return failed("the server is shutting down"), nil
	}
	rs.wg.Add(1)
	rs.mu.Unlock()
	go func() {
		defer rs.wg.Done()
		defer cancel()
		rs.finish(r, work(rctx, r))
	}()
	return rs.await(ctx, r, callerOf(ctx, req))
}

func callerOf(ctx context.Context, req *mcp.CallToolRequest) *roundCaller {
	return &roundCaller{ctx: ctx, ss: req.Session, token: req.Params.GetProgressToken()}
}

// finish records the run's result.
func (rs *rounds) finish(r *roundRun, res *mcp.CallToolResult) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	r.result, r.ended = res, true
	clear(r.pending)
	r.signal()
	close(r.done)
	rs.srv.log.Debug("a run across multi round-trip calls ended", "tool", r.tool, "abandoned", r.abandoned)
}

// signal wakes the call that waits on the run. rs.mu is held.
func (r *roundRun) signal() {
	close(r.changed)
	r.changed = make(chan struct{})
}

// await waits, for the call c, for the run's next question or its end.
// The call's cancellation ends the run, as it ends a run inside a call.
func (rs *rounds) await(ctx context.Context, r *roundRun, c *roundCaller) (*mcp.CallToolResult, error) {
	for {
		rs.mu.Lock()
		if r.ended {
			r.caller = nil
			res := r.result
			rs.mu.Unlock()
			return res, nil
		}
		if len(r.pending) > 0 {
			res := rs.detach(r)
			rs.mu.Unlock()
			return res, nil
		}
		r.caller = c
		ch := r.changed
		rs.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			r.cancel()
			<-r.done
			return r.result, nil
		}
	}
}

// detach ends a round: the call answers with the run's questions and a
// new state, and the run waits for the retry until the state expires.
// rs.mu is held.
func (rs *rounds) detach(r *roundRun) *mcp.CallToolResult {
	ttl := rs.srv.cfg.Limits.Effective().HumanTimeout
	var raw [16]byte
	_, _ = rand.Read(raw[:])
	id := hex.EncodeToString(raw[:])
	r.id, r.caller = id, nil
	if !rs.closed { // closing: the run is cancelled, and its state refused
		rs.waiting[id] = r
		r.expiry = time.AfterFunc(ttl, func() { rs.expire(r, id) })
	}
	asks := mcp.InputRequestMap{}
	for k, q := range r.pending {
		asks[k] = q.req
	}
	return &mcp.CallToolResult{InputRequests: asks, RequestState: rs.seal(r.tool, raw, time.Now().Add(ttl)), Meta: r.live.meta()}
}

// showLive gives each of the run's rounds its live view's URLs.
func (r *roundRun) showLive(rv *runView) {
	r.rs.mu.Lock()
	defer r.rs.mu.Unlock()
	r.live = rv
}

// expire ends a round whose retry did not come: its state is refused
// from now on, and a run still going is cancelled.
func (rs *rounds) expire(r *roundRun, id string) {
	rs.mu.Lock()
	if rs.waiting[id] != r {
		rs.mu.Unlock()
		return // the retry came
	}
	delete(rs.waiting, id)
	r.id = ""
	running := !r.ended
	r.abandoned = running
	rs.mu.Unlock()
	rs.srv.log.Info("a multi round-trip request state expired without a retry", "tool", r.tool, "cancelling_run", running)
	r.cancel()
}

// resume is a retry: it checks the request state, gives the answers to
// the run's questions and waits for the run's next question or its end.
func (rs *rounds) resume(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	rs.init()
	id, err := rs.open(req.Params.Name, req.Params.RequestState)
	if err != nil {
		return failed(err.Error()), nil
	}
	rs.mu.Lock()
	r := rs.waiting[id]
	if r == nil {
		rs.mu.Unlock()
		return failed("the request state was used already (each is good for one retry), or its run has ended; nothing was run. Call " +
			req.Params.Name + " again without it to start anew"), nil
	}
	delete(rs.waiting, id)
	r.id = ""
	r.expiry.Stop()
	for k, a := range req.Params.InputResponses {
		if q := r.pending[k]; q != nil && a != nil {
			delete(r.pending, k)
			q.answer <- a
		}
	}
	rs.mu.Unlock()
	return rs.await(ctx, r, callerOf(ctx, req))
}

// stateLen is a state's length in bytes: the id, the expiry (Unix
// milliseconds) and the HMAC-SHA256.
const stateLen = 16 + 8 + sha256.Size

// seal writes a request state.
func (rs *rounds) seal(tool string, id [16]byte, exp time.Time) string {
	b := make([]byte, 0, stateLen)
	b = append(b, id[:]...)
	b = binary.BigEndian.AppendUint64(b, uint64(exp.UnixMilli()))
	return base64.RawURLEncoding.EncodeToString(append(b, rs.mac(tool, b)...))
}

func (rs *rounds) mac(tool string, b []byte) []byte {
	m := hmac.New(sha256.New, rs.key)
	m.Write([]byte(tool + "\x00"))
	m.Write(b)
	return m.Sum(nil)
}

// open checks a request state and returns its id.
func (rs *rounds) open(tool, state string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(state)
	if err != nil || len(b) != stateLen || !hmac.Equal(b[24:], rs.mac(tool, b[:24])) {
		return "", fmt.Errorf("the request state was not made by this server for %s (altered, forged, or from a server since restarted); nothing was run. "+
			"Call %s again without it to start anew", tool, tool)
	}
	exp := time.UnixMilli(int64(binary.BigEndian.Uint64(b[16:24])))
	if time.Now().After(exp) {
		return "", fmt.Errorf("the request state expired at %s (a state lasts the human timeout, %s): its questions went unanswered and its run was ended; "+
			"nothing was run. Call %s again without it to start anew", exp.UTC().Format(time.RFC3339), rs.srv.cfg.Limits.Effective().HumanTimeout, tool)
	}
	return hex.EncodeToString(b[:16]), nil
}

// close cancels the runs and waits for them; no run starts after.
func (rs *rounds) close() {
	rs.init()
	rs.mu.Lock()
	rs.closed = true
	for id, r := range rs.waiting {
		r.expiry.Stop()
		delete(rs.waiting, id)
	}
	rs.mu.Unlock()
	rs.cancel()
	rs.wg.Wait()
}

// ask puts a question to the client: the call that waits on the run, or
// the retry, answers with it among its input requests. It waits for the
// answer until ctx ends (the agent bounds the wait), then withdraws it.
func (r *roundRun) ask(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	if !r.canElicit {
		return nil, errCannotAsk
	}
	rs := r.rs
	rs.mu.Lock()
	r.asked++
	key := "q" + strconv.Itoa(r.asked)
	q := &roundQuestion{req: p, answer: make(chan mcp.InputResponse, 1)}
	r.pending[key] = q
	r.signal()
	rs.mu.Unlock()
	select {
	case a := <-q.answer:
		return elicitAnswer(a)
	case <-ctx.Done():
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if r.pending[key] == q {
		delete(r.pending, key)
	}
	select {
	case a := <-q.answer:
		return elicitAnswer(a)
	default:
		return nil, ctx.Err()
	}
}

// progress reports a step to the call that waits on the run, when it
// asked for progress.
func (r *roundRun) progress(step agent.Step) {
	r.rs.mu.Lock()
	c := r.caller
	r.rs.mu.Unlock()
	if c == nil || c.token == nil {
		return
	}
	r.rs.mu.Lock()
	meta := r.live.meta()
	r.rs.mu.Unlock()
	_ = c.ss.NotifyProgress(c.ctx, &mcp.ProgressNotificationParams{ProgressToken: c.token, Progress: float64(step.Iteration), Message: describe(step), Meta: meta})
}
