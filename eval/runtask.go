package eval

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/eval/report"
	"github.com/webagent/webagent/eval/sites"
	"github.com/webagent/webagent/eval/suite"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/llm/anthropic"
	"github.com/webagent/webagent/llm/gemini"
	"github.com/webagent/webagent/llm/responses"
	"github.com/webagent/webagent/modelserver"
)

// runTask, the Run of TaskJobs' jobs, and what it uses: the reference model,
// the final page as the checks see it (checkPage) and the final screenshot.

// runTask runs one suite task: its site on 127.0.0.1, its model, the agent,
// then the checks and a final screenshot.
func runTask(ctx context.Context, env *Env, t *suite.Task) (report.Run, error) {
	start := time.Now()
	cfg := env.Config
	run := report.Run{ID: t.ID, Suite: t.Suite, Kind: "task", Checks: []suite.CheckResult{}, Steps: []report.Step{}}
	harnessFail := func(err error) (report.Run, error) {
		run.Code, run.Message = report.CodeHarnessError, err.Error()
		run.DurationMS = time.Since(start).Milliseconds()
		return run, nil
	}

	var siteBase string
	var site interface{ State() map[string]any }
	if t.Site != "" {
		s, err := sites.New(t.Site)
		if err != nil {
			return harnessFail(err)
		}
		srv, err := serveOn(cfg.SiteHost, s)
		if err != nil {
			return harnessFail(err)
		}
		defer srv.Close()
		site, siteBase = s, srv.URL
	}
	model := cfg.Model
	if model == nil {
		m, closeModel, err := referenceModel(suite.ReferencePolicy(t, siteBase), cfg.API)
		if err != nil {
			return harnessFail(err)
		}
		defer closeModel()
		model = m
	}
	opts := append(append([]agent.Option{agent.WithLogger(cfg.Logger)}, cfg.Options...), t.AgentOptions()...)
	if cfg.Native != "" {
		opts = append(opts, agent.WithNativeTools(cfg.Native))
	}
	task := t.AgentTask(siteBase)
	tw := startTrace(env, t.Suite+"/"+t.ID, task)
	cr, err := beginCache(cfg, t, task, tw)
	if err != nil {
		endTrace(ctx, env, tw, nil, &run)
		return harnessFail(err)
	}
	if tw != nil {
		opts = append(opts, agent.WithTracer(tw))
	}
	opts = append(opts, cr.options()...)
	a, err := agent.New(env.Browser, model, opts...)
	if err != nil {
		endTrace(ctx, env, tw, nil, &run)
		cr.finish(ctx, cfg, nil, "")
		return harnessFail(err)
	}
	res := a.Run(ctx, task)
	fillResult(&run, res)
	endTrace(ctx, env, tw, res, &run)
	run.CostUSD = costOf(cfg.Prices, cfg.ModelName, run.Tokens)
	run.Input = inputCostOf(cfg.Prices, cfg.ModelName, run.Tokens)
	ran := time.Now()

	if res.Code != agent.CodeCanceled && ctx.Err() == nil {
		cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		run.Checks = checkSettled(cctx, t, res, env.Browser, site, res.Code == agent.CodeSuccess)
		cancel()
		if res.Code == agent.CodeSuccess {
			run.Success = suite.Passed(run.Checks)
			if !run.Success {
				run.Code = report.CodeChecksFailed
				run.Message = firstFailure(run.Checks)
			}
		}
	}
	// Only a run whose checks passed is kept in the cache.
	stored := res
	if !run.Success {
		stored = nil
	}
	cr.finish(ctx, cfg, stored, traceDir(env, tw))
	run.Replay = res.Replay
	checked := time.Now()
	if ctx.Err() == nil {
		run.Screenshot = saveScreenshot(ctx, env)
	}
	run.DurationMS = time.Since(start).Milliseconds()
	cfg.Logger.Debug("task timing", "task", t.ID, "setup_and_agent", ran.Sub(start), "checks", checked.Sub(ran),
		"screenshot", time.Since(checked))
	return run, brokenBrowser(res.Err)
}

// checkSettle is how long the checks of a task the agent finished may take
// to pass: a page reports to its server, or updates itself, a moment after
// the last action, and on a loaded machine that moment can be long.
const checkSettle = 2 * time.Second

// checkSettled runs the task's checks; when settle is set and some fail,
// it runs them again, every 200ms, for up to checkSettle.
func checkSettled(ctx context.Context, t *suite.Task, res *agent.Result, b *browser.Browser, site interface{ State() map[string]any }, settle bool) []suite.CheckResult {
	deadline := time.Now().Add(checkSettle)
	for {
		in := suite.CheckInput{Answer: res.Answer, Page: newPage(ctx, b, res)}
		if site != nil {
			in.State = site.State()
		}
		results := t.Check(ctx, in)
		if !settle || suite.Passed(results) || time.Now().After(deadline) {
			return results
		}
		select {
		case <-ctx.Done():
			return results
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// fillResult copies the agent's result into run.
func fillResult(run *report.Run, res *agent.Result) {
	run.Code, run.AgentCode = string(res.Code), string(res.Code)
	run.Success = res.Code == agent.CodeSuccess
	run.Message, run.Answer = res.Message, res.Answer
	run.Iterations, run.Tokens = res.Iterations, res.Usage
	run.Steps = report.Steps(res.Steps)
}

func firstFailure(cs []suite.CheckResult) string {
	for _, c := range cs {
		if !c.Pass {
			return fmt.Sprintf("check %s (line %d) failed: %s", c.Check, c.Line, c.Message)
		}
	}
	return "no checks"
}

// brokenBrowser returns err when it says the browser died.
func brokenBrowser(err error) error {
	if errors.Is(err, browser.ErrCrashed) || errors.Is(err, browser.ErrDisconnected) {
		return err
	}
	return nil
}

// referenceModel starts a [modelserver.Server] answering with p and returns
// a client of it over api (APIChat, APIAnthropic, APIResponses or
// APIGemini), and a func that stops both.
func referenceModel(p modelserver.Responder, api string) (contract.Model, func(), error) {
	srv, err := modelserver.Start(p)
	if err != nil {
		return nil, nil, err
	}
	base, idle := srv.BaseURL(), 30*time.Second
	var client interface {
		contract.Model
		CloseIdleConnections()
	}
	switch api {
	case "", APIChat:
		client, err = llm.New(llm.Config{BaseURL: base, Model: ReferenceModel, Inactivity: idle})
	case APIAnthropic:
		client, err = anthropic.New(anthropic.Config{BaseURL: base, Model: ReferenceModel, Inactivity: idle})
	case APIResponses:
		client, err = responses.New(responses.Config{BaseURL: base, Model: ReferenceModel, Inactivity: idle})
	case APIGemini: // the server takes any key; the API needs one
		client, err = gemini.New(gemini.Config{BaseURL: srv.GeminiBaseURL(), APIKey: "reference", Model: ReferenceModel, Inactivity: idle})
	default:
		err = fmt.Errorf("the reference model speaks the APIs %s, %s, %s and %s, not %q", APIChat, APIAnthropic, APIResponses, APIGemini, api)
	}
	if err != nil {
		srv.Close()
		return nil, nil, err
	}
	return client, func() {
		client.CloseIdleConnections()
		srv.Close()
	}, nil
}

// checkPage adapts the browser to suite.Page.
type checkPage struct {
	b   *browser.Browser
	url string
}

func newPage(ctx context.Context, b *browser.Browser, res *agent.Result) *checkPage {
	p := &checkPage{b: b}
	for i := len(res.Steps) - 1; i >= 0 && p.url == ""; i-- {
		p.url = res.Steps[i].URL
	}
	if v, err := p.Eval(ctx, "location.href"); err == nil {
		if s, ok := v.(string); ok && s != "" {
			p.url = s
		}
	}
	return p
}

func (p *checkPage) URL() string { return p.url }

func (p *checkPage) Eval(ctx context.Context, js string) (any, error) { return evalJS(ctx, p.b, js) }

// evalJS evaluates a JavaScript expression in the browser's page.
func evalJS(ctx context.Context, b *browser.Browser, js string) (any, error) {
	return b.Eval(ctx, js)
}

// saveScreenshot saves the page as env.Shot under the output directory
// and returns its name, or "" when none was taken.
func saveScreenshot(ctx context.Context, env *Env) string {
	if env.Config.OutDir == "" || env.Shot == "" {
		return ""
	}
	sc, ok := any(env.Browser).(contract.Screenshotter)
	if !ok {
		return ""
	}
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	png, err := sc.Screenshot(sctx)
	if err != nil {
		env.Config.Logger.Debug("final screenshot", "error", err)
		return ""
	}
	path := filepath.Join(env.Config.OutDir, filepath.FromSlash(env.Shot))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return ""
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		return ""
	}
	return env.Shot
}
