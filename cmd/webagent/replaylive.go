package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/liveview"
	"github.com/webagent/webagent/replay"
	"github.com/webagent/webagent/trace"
)

// replay --live: a live view of a replay, as run has (liveflags.go): the
// browser's screen, each replayed action as a step, the result; a person
// may take the browser between two actions, and the replay waits for them
// to hand back. `webagent console` starts replays this way, and lists
// them by their registered view.

// replayHoldIdle is how long a person who took a replay's browser may go
// without input before it goes back to the replay.
const replayHoldIdle = 2 * time.Minute

// registerReplayLive registers replay's --live, --live-cert and
// --live-key into l.
func registerReplayLive(l *liveFlags) func(fs *flag.FlagSet) {
	return func(fs *flag.FlagSet) {
		fs.Var(&l.addr, "live", "watch the replay in a browser and take the browser over between two actions (the replay waits until you hand it back): --live serves the view on a free loopback port, --live=HOST:PORT on that address (other than loopback it needs --live-cert and --live-key); the view's URLs are printed on stderr, and webagent console lists it")
		fs.StringVar(&l.certFile, "live-cert", "", "the live view's TLS certificate (PEM), for --live on an address other than loopback")
		fs.StringVar(&l.keyFile, "live-key", "", "the TLS certificate's private key (PEM), with --live-cert")
	}
}

// replayLive is a replay's live view while it runs: run's (liveRun), and
// the tracer that shows the replay's steps in it.
type replayLive struct {
	run    *liveRun
	tracer *liveTracer
}

// startReplayLive serves the replay's live view when --live was given, and
// prints its URLs on stderr; nil without --live.
func startReplayLive(l *liveFlags, task string, stderr io.Writer) (*replayLive, error) {
	if !l.addr.set {
		return nil, nil
	}
	srv, err := liveview.Start(liveview.Config{Addr: l.addr.addr, CertFile: l.certFile, KeyFile: l.keyFile, Register: true,
		OnRevoke: func(_ *liveview.View, view, control string) {
			fmt.Fprintf(stderr, "live view: the links were revoked; new ones:\n  watch:   %s\n  control: %s\n", view, control)
		}})
	if errors.Is(err, liveview.ErrTLSRequired) {
		return nil, usagef("--live=%s: %v (--live-cert, --live-key), or use a loopback address", l.addr.addr, err)
	}
	if err != nil {
		return nil, usagef("--live: %v", err)
	}
	v := srv.Open(liveview.Options{Title: "webagent replay", Task: task, Idle: replayHoldIdle})
	view, control := v.URLs()
	fmt.Fprintf(stderr, "live view (watch):   %s\nlive view (control): %s\n", view, control)
	return &replayLive{run: &liveRun{srv: srv, view: v}, tracer: &liveTracer{v: v}}, nil
}

// attach shows the replay's browser in the view.
func (rl *replayLive) attach(b contract.Screencaster) {
	if rl != nil {
		rl.run.attach(b)
	}
}

// wire makes the replay show its actions in the view (beside the --out
// trace, if any) and wait while a person holds the browser.
func (rl *replayLive) wire(opts *replay.Options, tw *trace.Writer) {
	if rl == nil {
		return
	}
	if tw != nil {
		rl.tracer.next = tw
	}
	opts.Tracer = rl.tracer
	opts.Control = rl.run.view.Lease()
}

// liveTracer shows a replay's recorded actions in a live view, and hands
// them on to the --out trace.
type liveTracer struct {
	v     *liveview.View
	next  agent.Tracer
	steps atomic.Int64 // the steps shown
}

func (t *liveTracer) TraceSnapshot(ctx context.Context, iteration int) {
	t.v.OnIteration(iteration, time.Time{})
	if t.next != nil {
		t.next.TraceSnapshot(ctx, iteration)
	}
}

func (t *liveTracer) TraceModel(mc agent.ModelCall) {
	if t.next != nil {
		t.next.TraceModel(mc)
	}
}

func (t *liveTracer) TraceStep(ctx context.Context, s agent.Step) {
	if t.next != nil {
		t.next.TraceStep(ctx, s)
	}
	t.steps.Add(1)
	t.v.OnStep(s)
}

// replayResult is a replay's outcome as a run's result: for the --out
// trace's end and the live view.
func replayResult(res *replay.Result, err error) *agent.Result {
	end := &agent.Result{Status: agent.StatusFailure, Code: agent.CodeAgentFailed, Steps: []agent.Step{}}
	switch {
	case err != nil:
		end.Message = err.Error()
	case res != nil:
		end.Status, end.Code, end.Answer, end.Message = agent.StatusSuccess, res.Code, res.Answer, "replayed"
		if res.Code != agent.CodeSuccess {
			end.Status = agent.StatusFailure
		}
	}
	return end
}

// finish shows the replay's outcome in the view (the steps it showed as
// its iterations) and ends the view.
func (rl *replayLive) finish(res *replay.Result, err error, started time.Time) {
	if rl == nil {
		return
	}
	end := replayResult(res, err)
	end.Iterations = int(rl.tracer.steps.Load())
	end.StartedAt, end.DurationMS = started, time.Since(started).Milliseconds()
	rl.run.close(end)
}

// close ends the view, once (finish may have).
func (rl *replayLive) close() {
	if rl != nil {
		rl.run.close(nil)
	}
}
