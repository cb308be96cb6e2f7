package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/webagent/webagent/browser/launcher"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/machinelock"
)

// The chaos run: many `webagent run` processes, two at a time, each with a
// random short bound and a random fault (a model that stalls, drips or
// never answers, a frozen, never-loading, dialog-storm or popup page) and,
// for some, a signal at a random moment. It checks what a user would: the
// exit within half a second of its bound (or of the signal, or of the
// printed result), the code and the JSON object README promises, and
// nothing left behind three seconds after the exit.
//
//	go test ./cmd/webagent -run TestChaos -chaos 300 [-chaos.seed N] [-chaos.load N] [-chaos.out runs.jsonl] -timeout 60m
//
// Without -chaos it is skipped: the suite's own bound test is
// TestExitFollowsBound.

var (
	chaosRuns = flag.Int("chaos", 0, "TestChaos: how many runs (0 skips it)")
	chaosSeed = flag.Uint64("chaos.seed", 0, "TestChaos: the seed of the random choices (0: the time)")
	chaosOut  = flag.String("chaos.out", "", "TestChaos: write each run as a JSON line to this file")
	chaosLoad = flag.Int("chaos.load", 0, "TestChaos: busy processes spinning beside the runs")
)

// chaosLateness is how long after its bound, a signal or its printed
// result a process may still run: README's promise.
const chaosLateness = 500 * time.Millisecond

// chaosEarly is how soon after its start a signal may still find webagent
// not handling signals yet, on a busy machine.
const chaosEarly = 300 * time.Millisecond

// chaosSignalLag is how long a signal may take to reach the run's context
// (the runtime's signal handler, then the cancel) on a busy machine: a
// task that ended by itself meanwhile keeps its own code.
const chaosSignalLag = 20 * time.Millisecond

// chaosLeftWithin is how long after the exit a run's folders may remain.
const chaosLeftWithin = 3 * time.Second

// chaosSpec is one run's draw.
type chaosSpec struct {
	Page  string `json:"page"`  // ok, frozen, never, dialogs, popups
	Model string `json:"model"` // ok, stall, drip, no-headers, error
	// FaultAt is the model call that fails: 1, or 2 after a click.
	FaultAt     int           `json:"fault_at,omitempty"`
	Bound       time.Duration `json:"bound"`
	Signal      string        `json:"signal,omitempty"` // SIGINT, SIGTERM, SIGKILL
	SignalAfter time.Duration `json:"signal_after,omitempty"`
}

// chaosRun is what one run did.
type chaosRun struct {
	N    int       `json:"n"`
	Spec chaosSpec `json:"spec"`
	// Code is the result's code ("" when nothing was printed), Exit the
	// process's exit status (-1 when a signal killed it).
	Code string `json:"code"`
	Exit int    `json:"exit"`
	// Anchor says what the lateness is measured from: "bound" (the
	// iteration's), "signal", or "result" (the printed result).
	Anchor string `json:"anchor"`
	// Early is set when a signal within chaosEarly of the start killed
	// the process before it handled signals: the system's default.
	Early       bool  `json:"early,omitempty"`
	LateMS      int64 `json:"late_ms"`       // exit after the anchor
	PrintLateMS int64 `json:"print_late_ms"` // result printed after a bound or signal
	// Left is what remained chaosLeftWithin after the exit.
	Left     []string `json:"left,omitempty"`
	Problems []string `json:"problems,omitempty"`
	Stdout   string   `json:"stdout,omitempty"`
	Stderr   string   `json:"stderr,omitempty"`
}

// chaosSite serves the pages of the chaos run. Handlers that never answer
// end when quit is closed.
func chaosSite(quit <-chan struct{}) *httptest.Server {
	mux := http.NewServeMux()
	const button = `<button onclick="document.title='pressed'">Go</button>`
	page := func(script string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, `<!doctype html><title>T</title>%s<script>%s</script>`, button, script)
		}
	}
	mux.HandleFunc("/ok", page(""))
	// The page's main thread spins shortly after it loaded.
	mux.HandleFunc("/frozen", page(`setTimeout(() => { for (;;) {} }, 30)`))
	mux.HandleFunc("/dialogs", page(`setInterval(() => alert('hi'), 20)`))
	mux.HandleFunc("/popups", page(`setInterval(() => window.open('/ok'), 50)`))
	mux.HandleFunc("/never", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-quit:
		}
	})
	return httptest.NewServer(mux)
}

// chaosModel is a model server for spec: a model that presses Go and
// answers, or one of the faults.
func chaosModel(spec chaosSpec) (*modelserver.Server, error) {
	var calls atomic.Int32
	return modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		n := int(calls.Add(1))
		if n >= spec.FaultAt {
			switch spec.Model {
			case "stall":
				return modelserver.Turn{Fault: modelserver.StallMidStream}
			case "drip":
				return modelserver.Turn{Fault: modelserver.Drip, Every: 200 * time.Millisecond}
			case "no-headers":
				return modelserver.Turn{Fault: modelserver.NoHeaders}
			case "error":
				return modelserver.Turn{Fault: modelserver.ServerError, Status: 400, Text: "bad request"}
			}
		}
		if n > 1 {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]string{"answer": "pressed"})}}
		}
		ref, ok := modelserver.FindRef(req.LastUser(), "button", "Go")
		if !ok {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("fail", map[string]string{"reason": "no Go button"})}}
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]string{"ref": ref})}}
	}))
}

// drawChaos draws one run.
func drawChaos(r *rand.Rand) chaosSpec {
	pick := func(choices ...string) string { return choices[r.IntN(len(choices))] }
	s := chaosSpec{
		Page:  pick("ok", "ok", "ok", "frozen", "never", "dialogs", "popups"),
		Model: pick("ok", "ok", "stall", "drip", "no-headers", "error"),
		Bound: 800*time.Millisecond + time.Duration(r.Int64N(int64(1700*time.Millisecond))),
	}
	if s.Model != "ok" {
		s.FaultAt = 1 + r.IntN(2)
	}
	if r.IntN(10) < 3 {
		s.Signal = pick("SIGINT", "SIGTERM", "SIGKILL")
		s.SignalAfter = time.Duration(r.Int64N(int64(4 * time.Second)))
	}
	return s
}

var chaosSignals = map[string]syscall.Signal{"SIGINT": syscall.SIGINT, "SIGTERM": syscall.SIGTERM, "SIGKILL": syscall.SIGKILL}

// playChaos runs one spec and checks it.
func playChaos(t *testing.T, site string, n int, spec chaosSpec) chaosRun {
	out := chaosRun{N: n, Spec: spec}
	srv, err := chaosModel(spec)
	if err != nil {
		out.Problems = append(out.Problems, err.Error())
		return out
	}
	defer srv.Close()
	p := start(t, "run", "--json", "--iteration-timeout", spec.Bound.String(), "--max-iterations", "4",
		"--url", site+"/"+spec.Page, "--base-url", srv.BaseURL(), "--model", "m", "press Go")
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	var sent time.Time
	if spec.Signal != "" {
		select {
		case <-done:
		case <-time.After(spec.SignalAfter):
			sent = time.Now()
			_ = p.cmd.Process.Signal(chaosSignals[spec.Signal])
		}
	}
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		_ = p.cmd.Process.Kill()
		<-done
		out.Problems = append(out.Problems, "no exit within two minutes")
	}
	exit := time.Now()
	out.Exit = p.cmd.ProcessState.ExitCode()
	out.Stdout, out.Stderr = p.stdout.String(), lastLines(p.stderr.String(), 6)
	out.Left = chaosLeft(p, spec.Signal == "SIGKILL")

	if spec.Signal == "SIGKILL" && !sent.IsZero() {
		out.Anchor = "signal"
		return out // nothing is promised of a killed process but no Chromium left
	}
	if out.Exit == -1 && out.Stdout == "" && spec.SignalAfter < chaosEarly {
		// The system's default: the signal came before webagent handles
		// signals (its first moments, the runtime's and packages' start).
		out.Early, out.Anchor = true, "signal"
		return out
	}
	var res struct {
		Code       string
		Status     string
		StartedAt  time.Time `json:"started_at"`
		DurationMS int64     `json:"duration_ms"`
		Steps      []struct {
			StartMS int64 `json:"start_ms"`
		}
	}
	if err := json.Unmarshal(p.stdout.Bytes(), &res); err != nil {
		out.Problems = append(out.Problems, fmt.Sprintf("stdout is not one JSON object: %v", err))
		return out
	}
	out.Code = res.Code
	printed := p.stdout.first
	want := exitFailed
	switch res.Code {
	case "SUCCESS":
		want = exitOK
	case "CANCELED":
		want = exitInterrupted
	}
	if out.Exit != want {
		out.Problems = append(out.Problems, fmt.Sprintf("exit %d with code %s, want %d", out.Exit, res.Code, want))
	}
	if (res.Code == "SUCCESS") != (res.Status == "success") {
		out.Problems = append(out.Problems, fmt.Sprintf("status %q with code %s", res.Status, res.Code))
	}
	// A signal sent before the task's own end (its start and duration, as
	// the result says) must cancel it; one that came as the task ended may
	// also leave the code the task ended with, printed just after.
	ended := res.StartedAt.Add(time.Duration(res.DurationMS) * time.Millisecond)
	signalled := !sent.IsZero() && sent.Before(printed)
	if signalled && res.Code != "CANCELED" && !sent.Before(ended.Add(-chaosSignalLag)) {
		signalled = false
	}
	if problem := chaosExpected(spec, res.Code, signalled); problem != "" {
		if !sent.IsZero() {
			problem += fmt.Sprintf(" (the signal went %d ms before the task's end, %d ms before its result was printed)",
				ended.Sub(sent).Milliseconds(), printed.Sub(sent).Milliseconds())
		}
		out.Problems = append(out.Problems, problem)
	}
	switch {
	case !sent.IsZero() && sent.Before(printed):
		out.Anchor = "signal"
		out.LateMS, out.PrintLateMS = exit.Sub(sent).Milliseconds(), printed.Sub(sent).Milliseconds()
	case res.Code == "ITERATION_TIMEOUT" && len(res.Steps) > 0:
		out.Anchor = "bound"
		at := res.StartedAt.Add(time.Duration(res.Steps[len(res.Steps)-1].StartMS)*time.Millisecond + spec.Bound)
		out.LateMS, out.PrintLateMS = exit.Sub(at).Milliseconds(), printed.Sub(at).Milliseconds()
	default:
		out.Anchor = "result"
		out.LateMS = exit.Sub(printed).Milliseconds()
	}
	if out.LateMS > chaosLateness.Milliseconds() {
		out.Problems = append(out.Problems, fmt.Sprintf("exited %d ms after the %s", out.LateMS, out.Anchor))
	}
	if out.PrintLateMS > chaosLateness.Milliseconds() {
		out.Problems = append(out.Problems, fmt.Sprintf("result printed %d ms after the %s", out.PrintLateMS, out.Anchor))
	}
	return out
}

// chaosExpected says what is wrong with code for spec, "" when it is one
// the spec allows. A signal that came before the result must cancel.
func chaosExpected(spec chaosSpec, code string, signalled bool) string {
	if signalled {
		if code != "CANCELED" {
			return "code " + code + " after a signal, want CANCELED"
		}
		return ""
	}
	if spec.Page == "ok" {
		want := map[string]string{"ok": "SUCCESS", "stall": "ITERATION_TIMEOUT", "drip": "ITERATION_TIMEOUT",
			"no-headers": "ITERATION_TIMEOUT", "error": "LLM_ERROR"}[spec.Model]
		// A short bound on a busy machine may end even a healthy
		// model's task: that is the bound, not a wrong outcome.
		if code != want && (spec.Model != "ok" || code != "ITERATION_TIMEOUT") {
			return "code " + code + ", want " + want
		}
		return ""
	}
	if code == "CANCELED" || code == "" {
		return "code " + code + " without a signal"
	}
	return ""
}

// chaosLeft lists what of p remains chaosLeftWithin after its exit.
// After SIGKILL only Chromium must be gone: the folders are the next
// start's, which it checks by sweeping.
func chaosLeft(p *proc, killed bool) []string {
	if !killed {
		return p.goneWithin(chaosLeftWithin)
	}
	deadline := time.Now().Add(chaosLeftWithin)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		procs := slices.DeleteFunc(p.left(), func(l string) bool { return !strings.HasPrefix(l, "a process: ") })
		if len(procs) > 0 && time.Now().Before(deadline) {
			<-tick.C
			continue
		}
		if len(procs) > 0 {
			return procs
		}
		launcher.SweepLeftovers(p.tmp)
		return p.left()
	}
}

// TestChaos is the chaos run (see the top of this file). It is serial, as
// TestExitFollowsBound is: it measures exits against bounds under a load
// of its own choosing.
func TestChaos(t *testing.T) {
	if *chaosRuns <= 0 {
		t.Skip("the chaos run: go test ./cmd/webagent -run TestChaos -chaos N")
	}
	seed := *chaosSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, seed))
	specs := make([]chaosSpec, *chaosRuns)
	for i := range specs {
		specs[i] = drawChaos(r)
	}
	if *chaosLoad > 0 {
		machinelock.Exclusive(t)
	}
	loadMachine(t, *chaosLoad)
	quit := make(chan struct{})
	site := chaosSite(quit)
	defer site.Close()
	defer close(quit)

	var (
		mu   sync.Mutex
		runs []chaosRun
		wg   sync.WaitGroup
		sem  = make(chan struct{}, 2)
	)
	var jsonl *os.File
	if *chaosOut != "" {
		f, err := os.Create(*chaosOut)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		jsonl = f
	}
	for i, spec := range specs {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			run := playChaos(t, site.URL, i+1, spec)
			mu.Lock()
			defer mu.Unlock()
			runs = append(runs, run)
			if jsonl != nil {
				b, _ := json.Marshal(run)
				jsonl.Write(append(b, '\n'))
			}
		})
	}
	wg.Wait()
	chaosSummary(t, runs)
}

// chaosSummary logs the figures of the runs and fails t for each problem.
func chaosSummary(t *testing.T, runs []chaosRun) {
	slices.SortFunc(runs, func(a, b chaosRun) int { return cmp.Compare(b.LateMS, a.LateMS) })
	var late, left, bad, early int
	codes := map[string]int{}
	var lates []time.Duration
	for _, r := range runs {
		codes[cmp.Or(r.Code, "(none: "+r.Spec.Signal+")")]++
		if r.Anchor != "" {
			lates = append(lates, time.Duration(r.LateMS)*time.Millisecond)
		}
		if r.LateMS > chaosLateness.Milliseconds() {
			late++
		}
		if len(r.Left) > 0 {
			left++
		}
		if r.Early {
			early++
		}
		if len(r.Problems) > 0 || len(r.Left) > 0 {
			bad++
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d runs: %d exits more than %s late, %d left something %s after the exit, %d with a problem; %d signalled before webagent handled signals\n",
		len(runs), late, chaosLateness, left, chaosLeftWithin, bad, early)
	if len(lates) > 0 {
		fmt.Fprintf(&b, "exit after the bound, signal or result: %s\n", lagStats(lates))
	}
	fmt.Fprintf(&b, "codes: %v\nslowest exits:\n", codes)
	for _, r := range runs[:min(10, len(runs))] {
		fmt.Fprintf(&b, "  %5d ms after the %-6s page %-7s model %-10s bound %-6s %s %s -> %s exit %d\n",
			r.LateMS, r.Anchor, r.Spec.Page, r.Spec.Model, r.Spec.Bound.Round(time.Millisecond), r.Spec.Signal,
			r.Spec.SignalAfter.Round(time.Millisecond), cmp.Or(r.Code, "-"), r.Exit)
	}
	t.Log("\n" + b.String())
	shown := 0
	for _, r := range runs {
		if (len(r.Problems) > 0 || len(r.Left) > 0) && shown < 20 {
			shown++
			t.Errorf("run %d %+v: %v; left %v\nstdout: %s\nstderr: %s", r.N, r.Spec, r.Problems, r.Left, oneLine(r.Stdout, 300), r.Stderr)
		}
	}
}
