package eval

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/eval/report"
	"github.com/webagent/webagent/eval/suite"
)

// DefaultMiniWoBTasks are run when --miniwob-tasks is not given: simple
// MiniWoB++ tasks of one to a few steps.
var DefaultMiniWoBTasks = []string{
	"click-button", "click-link", "click-checkboxes", "click-option", "click-tab",
	"enter-text", "focus-text", "login-user", "choose-list", "click-dialog",
}

// MiniWoB serves a MiniWoB++ checkout's miniwob/html folder on 127.0.0.1
// and makes one job per task and seed.
type MiniWoB struct {
	// EpisodeTimer keeps each task's own episode timer (core.js's
	// EPISODE_MAX_TIME, 10 s unless the task sets another), which ends an
	// episode with a reward of -1 when it runs out, as the benchmark does
	// for people. Off (the default, as in BrowserGym), an episode has no
	// time limit but the agent's own bounds.
	EpisodeTimer bool

	html string
	srv  *loopback
}

// NewMiniWoB serves dir/miniwob/html (dir is a checkout of MiniWoB++) on
// host ("" is 127.0.0.1).
func NewMiniWoB(dir, host string) (*MiniWoB, error) {
	html := filepath.Join(dir, "miniwob", "html")
	if fi, err := os.Stat(filepath.Join(html, "miniwob")); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a MiniWoB++ checkout: %s/miniwob is missing", dir, html)
	}
	srv, err := serveOn(host, http.FileServer(http.Dir(html)))
	if err != nil {
		return nil, err
	}
	return &MiniWoB{html: html, srv: srv}, nil
}

// URL is where the html folder is served.
func (m *MiniWoB) URL() string { return m.srv.URL }

// Close stops the server.
func (m *MiniWoB) Close() { m.srv.Close() }

// Jobs returns one job per task and seed. A task whose page is missing is
// an error.
func (m *MiniWoB) Jobs(tasks []string, seeds []int64) ([]Job, error) {
	var missing []string
	for _, t := range tasks {
		if _, err := os.Stat(filepath.Join(m.html, "miniwob", t+".html")); err != nil {
			missing = append(missing, t)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("no such MiniWoB++ task: %s (looked for miniwob/NAME.html in %s)", strings.Join(missing, ", "), m.html)
	}
	var jobs []Job
	for _, t := range tasks {
		for _, seed := range seeds {
			run := report.Run{Suite: "miniwob", ID: t, Seed: &seed}
			jobs = append(jobs, Job{
				Suite: "miniwob", ID: t, Key: run.Key(), Retry: true,
				Run: func(ctx context.Context, env *Env) (report.Run, error) { return m.runEpisode(ctx, env, t, seed) },
			})
		}
	}
	return jobs, nil
}

// MiniWoBMaxIterations is the default bound on an episode's iterations,
// unless the configuration sets one.
const MiniWoBMaxIterations = 15

// untimedMS is the episode time set when the task's own timer is not
// kept (MiniWoB.EpisodeTimer): long past any bound of the agent's, as in
// BrowserGym.
const untimedMS = 1000000

// hideDisplayJS takes out of the page what only a human player needs and
// a model must not see, as BrowserGym does: the reward display and episode
// counters, the click canvas, the start cover and the instruction's text
// (the model gets it as the task). The instruction area (#query) keeps its
// place in the layout, hidden: its coloured box would show as a tile. What
// the instruction shows but does not say (a colour swatch, an image, a
// drawing: "Select the following color") stays in sight in its place,
// after the words "Picture in the instruction:", so the snapshot gives it
// as it gives the page's own pictures. endEpisode and getUtterance still
// find everything: it is put back for the call and taken out again.
// core.webagentEnded settles when the episode ends, by an action or by the
// episode's own timer.
const hideDisplayJS = `(function () {
  const ids = ['reward-display', 'click-canvas', 'sync-task-cover'];
  const away = {};
  const query = document.getElementById('query');
  const queryHTML = query ? query.innerHTML : '';
  const queryVisibility = query ? query.style.visibility : '';
  // A picture: an image, a drawing, or a box without text that shows a
  // colour or a background image.
  const picture = (el) => {
    if (/^(img|svg|canvas|picture|video)$/.test(el.localName)) return true;
    if (el.textContent.trim()) return false;
    const st = getComputedStyle(el), r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && (st.backgroundImage !== 'none' || !/^(transparent|rgba\(0, 0, 0, 0\))$/.test(st.backgroundColor));
  };
  const takeOut = () => {
    for (const id of ids) {
      const el = document.getElementById(id);
      if (el) { away[id] = el; el.remove(); }
    }
    if (!query) return;
    const pics = [];
    for (const el of query.querySelectorAll('*')) if (!pics.some((p) => p.contains(el)) && picture(el)) pics.push(el);
    query.innerHTML = '';
    query.style.visibility = 'hidden';
    if (!pics.length) return;
    const say = document.createElement('span');
    say.textContent = 'Picture in the instruction: ';
    for (const el of [say, ...pics]) { el.style.visibility = 'visible'; query.appendChild(el); }
  };
  const putBack = () => {
    for (const id of ids) if (away[id] && !away[id].isConnected) document.body.appendChild(away[id]);
    if (query) { query.innerHTML = queryHTML; query.style.visibility = queryVisibility; }
  };
  let ended;
  core.webagentEnded = new Promise((resolve) => { ended = resolve; });
  if (typeof core.clearTimer === 'function') core.clearTimer();
  if (typeof core.canvasDrawClick === 'function') document.body.removeEventListener('click', core.canvasDrawClick);
  for (const name of ['endEpisode', 'getUtterance']) {
    const orig = core[name];
    if (typeof orig !== 'function') continue;
    core[name] = function () {
      putBack();
      try { return orig.apply(this, arguments); } finally {
        takeOut();
        if (window.WOB_DONE_GLOBAL) ended(true);
      }
    };
  }
  takeOut();
  return true;
})()`

// Codes of a MiniWoB++ episode.
const (
	// CodeEpisodeFailed: the episode ended with a reward of 0 or less.
	CodeEpisodeFailed = "EPISODE_FAILED"
	// CodeEpisodeNotDone: the agent stopped but the episode was not over.
	CodeEpisodeNotDone = "EPISODE_NOT_DONE"
)

// wobState is the episode's globals, read after every action.
type wobState struct {
	Done   bool    `json:"done"`
	Reward float64 `json:"reward"`
	Reason string  `json:"reason"`
}

const readWob = `({done: !!window.WOB_DONE_GLOBAL, reward: Number(window.WOB_RAW_REWARD_GLOBAL || 0), reason: String(window.WOB_REWARD_REASON == null ? "" : window.WOB_REWARD_REASON)})`

func decodeWob(v any) wobState {
	m, _ := v.(map[string]any)
	var s wobState
	s.Done, _ = m["done"].(bool)
	s.Reward, _ = m["reward"].(float64)
	s.Reason, _ = m["reason"].(string)
	return s
}

// episode wraps the browser for the agent: after every action it reads the
// episode's globals, and once the episode is over it ends the run (and
// refuses any further action, so that the start cover is never clicked
// again). With the episode's own timer (timed), it also reads them before
// an action: the timer may have ended the episode while the model
// thought.
type episode struct {
	b     *browser.Browser
	timed bool
	mu    sync.Mutex
	state wobState
	over  bool
	reads int
}

func (e *episode) Snapshot(ctx context.Context) (contract.Snapshot, error) { return e.b.Snapshot(ctx) }

// Screenshot lets the screenshot tool (--vision) work in episodes.
func (e *episode) Screenshot(ctx context.Context) ([]byte, error) { return e.b.Screenshot(ctx) }

// PageState lets the loop judge repetition per action in episodes.
func (e *episode) PageState(ctx context.Context) (string, error) { return e.b.PageState(ctx) }

var (
	_ contract.Screenshotter = (*episode)(nil)
	_ contract.PageStater    = (*episode)(nil)
)

func (e *episode) Do(ctx context.Context, a contract.Action) (contract.Outcome, error) {
	e.mu.Lock()
	over := e.over
	e.mu.Unlock()
	if over {
		return contract.Outcome{}, contract.ActionErrorf("the episode is over; call done")
	}
	if e.timed {
		if st, err := e.read(ctx); err == nil && st.Done {
			return contract.Outcome{}, episodeOver(st, "not done: the episode ended before it")
		}
	}
	out, err := e.b.Do(ctx, a)
	if st, rerr := e.read(ctx); rerr == nil && st.Done {
		// The episode ends the task at once, with this action's outcome.
		if err != nil {
			out.Text = "error: " + err.Error()
		}
		return contract.Outcome{}, episodeOver(st, out.Text)
	}
	return out, err
}

// episodeOver ends the task with the outcome of its last action and the
// episode's reward.
func episodeOver(st wobState, outcome string) *agent.TaskOver {
	msg := fmt.Sprintf("the episode is over (reward %g)", st.Reward)
	if st.Reason != "" {
		msg += ": " + st.Reason
	}
	return &agent.TaskOver{Outcome: outcome + "; " + msg, Success: st.Reward > 0, Message: msg}
}

func (e *episode) read(ctx context.Context) (wobState, error) {
	v, err := evalJS(ctx, e.b, readWob)
	if err != nil {
		return wobState{}, err
	}
	st := decodeWob(v)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.reads++
	if !e.over {
		e.state = st
		e.over = st.Done
	}
	return st, nil
}

func (m *MiniWoB) runEpisode(ctx context.Context, env *Env, task string, seed int64) (report.Run, error) {
	start := time.Now()
	cfg := env.Config
	run := report.Run{ID: task, Suite: "miniwob", Kind: "miniwob", Seed: &seed, Checks: []suite.CheckResult{}, Steps: []report.Step{}}
	fail := func(code, msg string, err error) (report.Run, error) {
		run.Code, run.Message = code, msg
		run.DurationMS = time.Since(start).Milliseconds()
		return run, brokenBrowser(err)
	}
	if cfg.Model == nil {
		return fail(report.CodeHarnessError, "MiniWoB++ needs a model: the reference model has no solutions for it", nil)
	}
	b := env.Browser
	sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	utterance, ends, err := m.startEpisode(sctx, b, task, seed)
	if err != nil {
		return fail(report.CodeHarnessError, err.Error(), err)
	}

	ep := &episode{b: b, timed: m.EpisodeTimer}
	// cfg.Options (the command line's --max-iterations) come after the
	// default, so they win.
	opts := append([]agent.Option{agent.WithLogger(cfg.Logger), agent.WithMaxIterations(MiniWoBMaxIterations)}, cfg.Options...)
	a, err := agent.New(ep, cfg.Model, opts...)
	if err != nil {
		return fail(report.CodeHarnessError, err.Error(), nil)
	}
	res := a.Run(ctx, agent.Task{Instruction: utterance})
	fillResult(&run, res)
	run.Answer = res.Answer
	if ctx.Err() == nil {
		ep.awaitEnd(ctx, ends)
	}
	ep.mu.Lock()
	st, over := ep.state, ep.over
	ep.mu.Unlock()
	run.Reward, run.RewardReason = &st.Reward, st.Reason
	switch {
	case ctx.Err() != nil:
		run.Code, run.Success = string(agent.CodeCanceled), false
	case over && st.Reward > 0:
		run.Code, run.Success = string(agent.CodeSuccess), true
		run.Message = fmt.Sprintf("episode over with reward %g", st.Reward)
	case over:
		run.Code, run.Success = CodeEpisodeFailed, false
		run.Message = fmt.Sprintf("episode over with reward %g: %s", st.Reward, st.Reason)
	case res.Code == agent.CodeSuccess:
		run.Code, run.Success = CodeEpisodeNotDone, false
		run.Message = "the agent called done but the episode is not over"
	default:
		run.Success = false
	}
	if ctx.Err() == nil {
		run.Screenshot = saveScreenshot(ctx, env)
	}
	run.Instruction = utterance
	run.DurationMS = time.Since(start).Milliseconds()
	return run, brokenBrowser(res.Err)
}

// startEpisode opens the task's page, starts a seeded episode (with no
// time limit unless m.EpisodeTimer), reads its utterance and hides the
// human display. ends is when the episode's own timer will end it; zero
// without one. Its error says which step failed, wrapping the browser's.
func (m *MiniWoB) startEpisode(ctx context.Context, b *browser.Browser, task string, seed int64) (utterance string, ends time.Time, err error) {
	if _, err := b.Do(ctx, contract.Action{Name: contract.ActGoto, URL: m.srv.URL + "/miniwob/" + task + ".html"}); err != nil {
		return "", time.Time{}, fmt.Errorf("opening the task: %w", err)
	}
	const waitCover = `new Promise(function (resolve) {
  (function poll() { if (document.querySelector('#sync-task-cover')) resolve(true); else setTimeout(poll, 20); })();
})`
	if _, err := evalJS(ctx, b, waitCover); err != nil {
		return "", time.Time{}, fmt.Errorf("waiting for #sync-task-cover: %w", err)
	}
	timer := fmt.Sprintf("core.EPISODE_MAX_TIME = %d; ", untimedMS)
	if m.EpisodeTimer {
		timer = ""
	}
	startJS := fmt.Sprintf("Math.seedrandom(%d); core.setDataMode('train'); %score.startEpisodeReal(); Number(core.EPISODE_MAX_TIME)", seed, timer)
	started := time.Now()
	limit, err := evalJS(ctx, b, startJS)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("starting the episode: %w", err)
	}
	if ms, ok := limit.(float64); ok && m.EpisodeTimer && ms > 0 {
		ends = started.Add(time.Duration(ms) * time.Millisecond)
	}
	u, err := evalJS(ctx, b, `core.getUtterance()`)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("reading the utterance: %w", err)
	}
	switch v := u.(type) {
	case string:
		utterance = v
	case map[string]any:
		utterance, _ = v["utterance"].(string)
	}
	if strings.TrimSpace(utterance) == "" {
		return "", time.Time{}, fmt.Errorf("core.getUtterance() gave no instruction: %v", u)
	}
	if _, err := evalJS(ctx, b, hideDisplayJS); err != nil {
		return "", time.Time{}, fmt.Errorf("hiding the episode's display: %w", err)
	}
	return utterance, ends, nil
}

// timerSlack is how long past its end the episode's own timer may take to
// fire and be seen (a busy page, a slow machine).
const timerSlack = 3 * time.Second

// awaitEnd reads the episode's globals once the agent has stopped. With
// the episode's own timer (ends set) and the episode not yet over, it
// first waits for the timer to end it, as the benchmark would, until ends
// and timerSlack have passed.
func (e *episode) awaitEnd(ctx context.Context, ends time.Time) {
	e.mu.Lock()
	over := e.over
	e.mu.Unlock()
	if !over && !ends.IsZero() {
		wctx, cancel := context.WithDeadline(ctx, ends.Add(timerSlack))
		_, _ = evalJS(wctx, e.b, "core.webagentEnded")
		cancel()
	}
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_, _ = e.read(rctx)
}
