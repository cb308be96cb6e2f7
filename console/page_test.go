package console_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp/kb"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/console"
	"github.com/webagent/webagent/liveview"
	"github.com/webagent/webagent/testfixture/tier"
	"github.com/webagent/webagent/trace"
)

// TestConsolePage: a person opens the console's URL and sees the live run
// of this machine (a live view registered by this process) with its
// control link, and the past runs of the folder with their results (a
// finished run of the agent, and one where a person took over); opens the
// finished run and steps through its steps beside their screenshots; the
// token leaves the address bar.
func TestConsolePage(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	dir := t.TempDir()
	res := recordRun(t, filepath.Join(dir, "tea"))
	recordTakeover(t, filepath.Join(dir, "bank"))

	lv, err := liveview.Start(liveview.Config{Register: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = lv.Close(ctx)
	}()
	view := lv.Open(liveview.Options{Title: "webagent run", Task: "Book a table for two at eight"})
	defer view.Close()
	_, control := view.URLs()

	srv := serve(t, console.Config{Dirs: []string{dir}})
	ctx := page(t, srv.URL())

	// The live run, linked to its control URL.
	waitJS(t, ctx, `[...document.querySelectorAll('#live tbody tr')].some((r) => r.innerText.includes('Book a table for two at eight'))`, 20*time.Second)
	if href := eval[string](t, ctx, `[...document.querySelectorAll('#live tbody tr')].find((r) => r.innerText.includes('Book a table for two at eight')).querySelector('a.open-live').href`); href != control {
		t.Errorf("the live run's link is %q, not its control URL", href)
	}
	// The past runs, newest first, with their results.
	waitJS(t, ctx, `document.querySelectorAll('#runs tbody tr').length === 2`, 20*time.Second)
	rows := eval[[]string](t, ctx, `[...document.querySelectorAll('#runs tbody tr')].map((r) => r.innerText.replace(/\s+/g, ' '))`)
	tea := rows[0]
	for _, want := range []string{"What does green tea cost?", "/", "SUCCESS", fmt.Sprint(res.Iterations)} {
		if !strings.Contains(tea, want) {
			t.Errorf("the finished run's row %q lacks %q", tea, want)
		}
	}
	if strings.Contains(tea, "took over") || !strings.Contains(rows[1], "Sign in to the bank") || !strings.Contains(rows[1], "took over") ||
		!strings.Contains(rows[1], "15.3 s") {
		t.Errorf("who took over, and the durations, read wrong:\n%s\n%s", tea, rows[1])
	}
	if q := eval[string](t, ctx, `location.search`); q != "" {
		t.Errorf("the token stays in the address bar: %q", q)
	}
	snapshot(t, ctx, "console-home")

	// The finished run: its first step beside its screenshot.
	click(t, ctx, `#runs tbody tr:first-child`)
	waitJS(t, ctx, `!document.getElementById('run').hidden && document.getElementById('pos').textContent === 'Step 1 of 2'`, 20*time.Second)
	waitJS(t, ctx, `document.getElementById('shot').complete && document.getElementById('shot').naturalWidth > 0`, 20*time.Second)
	step := eval[string](t, ctx, `document.getElementById('step').innerText`)
	for _, want := range []string{"Iteration 1", "I open the price list to find the price.", "click(", "→"} {
		if !strings.Contains(step, want) {
			t.Errorf("step 1 shows %q, without %q", step, want)
		}
	}
	if n := eval[int](t, ctx, `[...document.querySelectorAll('#film img')].filter((i) => i.complete && i.naturalWidth > 0).length`); n == 0 {
		waitJS(t, ctx, `[...document.querySelectorAll('#film img')].every((i) => i.complete && i.naturalWidth > 0)`, 20*time.Second)
	}
	first := eval[string](t, ctx, `document.getElementById('shot').src`)
	snapshot(t, ctx, "console-run")

	// Forward: the last step, its answer and the run's result.
	click(t, ctx, `#next`)
	waitJS(t, ctx, `document.getElementById('pos').textContent === 'Step 2 of 2'`, 10*time.Second)
	step = eval[string](t, ctx, `document.getElementById('step').innerText`)
	for _, want := range []string{"Iteration 2", "green tea costs 4 EUR", "done(", "SUCCESS", "Answer: 4 EUR"} {
		if !strings.Contains(step, want) {
			t.Errorf("step 2 shows %q, without %q", step, want)
		}
	}
	waitJS(t, ctx, `document.getElementById('shot').complete && document.getElementById('shot').naturalWidth > 0`, 20*time.Second)
	if eval[string](t, ctx, `document.getElementById('shot').src`) == first {
		t.Error("step 2 shows step 1's screenshot")
	}
	if !eval[bool](t, ctx, `document.getElementById('next').disabled`) {
		t.Error("Next is not disabled at the last step")
	}
	// Back, with the keyboard.
	key(t, ctx, kb.ArrowLeft)
	waitJS(t, ctx, `document.getElementById('pos').textContent === 'Step 1 of 2'`, 10*time.Second)

	// How to run it again: the replay's command names the folder.
	cmd := eval[string](t, ctx, `document.getElementById('replaycmd').textContent`)
	if cmd != "webagent replay --live "+filepath.Join(dir, "tea") {
		t.Errorf("the replay command is %q", cmd)
	}
	if eval[bool](t, ctx, `!!document.getElementById('replay')`) {
		t.Error("a console without Config.Replay offers to start a replay")
	}

	// Back to the list; the live run ends and leaves it.
	click(t, ctx, `#back`)
	waitJS(t, ctx, `!document.getElementById('home').hidden`, 10*time.Second)
	view.Close()
	waitJS(t, ctx, `![...document.querySelectorAll('#live tbody tr')].some((r) => r.innerText.includes('Book a table'))`, 20*time.Second)
}

// TestConsolePageReplay: the replay button says what it does, asks before
// it starts, and the replay it starts is listed on the console's first
// page; a run that typed a secret has no button, only the command with
// the secret read from the environment.
func TestConsolePageReplay(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	dir := t.TempDir()
	recordTakeover(t, filepath.Join(dir, "bank"))
	h, _ := trace.TaskHeader(agent.Task{URL: "https://shop.example/", Instruction: "Sign in to the shop", Secrets: map[string]string{"password": "hunter2"}},
		trace.ModelInfo{})
	h.Started = time.Now().Add(-2 * time.Hour)
	tw, err := trace.Create(filepath.Join(dir, "shop"), h, trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tw.End(context.Background(), &agent.Result{Status: agent.StatusFailure, Code: agent.CodeAgentFailed, Message: "the page never answered"}); err != nil {
		t.Fatal(err)
	}
	srv := serve(t, console.Config{Dirs: []string{dir}, Replay: func(string) []string {
		return []string{"/bin/sh", "-c", "echo replaying the bank; exec sleep 60"}
	}})
	ctx := page(t, srv.URL())
	waitJS(t, ctx, `document.querySelectorAll('#runs tbody tr').length === 2`, 20*time.Second)

	click(t, ctx, `#runs tbody tr:nth-child(2)`)
	waitJS(t, ctx, `document.getElementById('runtask').textContent === 'Sign in to the shop'`, 10*time.Second)
	if eval[bool](t, ctx, `!!document.getElementById('replay')`) {
		t.Error("a run that typed a secret offers a replay from the console")
	}
	if cmd := eval[string](t, ctx, `document.getElementById('replaycmd').textContent`); !strings.Contains(cmd, "--secret password=env:WEBAGENT_SECRET_PASSWORD") {
		t.Errorf("the replay command of a run with a secret: %q", cmd)
	}
	if txt := eval[string](t, ctx, `document.getElementById('step').innerText`); !strings.Contains(txt, "AGENT_FAILED: the page never answered") {
		t.Errorf("a run without steps shows %q", txt)
	}

	click(t, ctx, `#back`)
	click(t, ctx, `#runs tbody tr:nth-child(1)`)
	waitJS(t, ctx, `!!document.getElementById('replay')`, 10*time.Second)
	if b := eval[string](t, ctx, `document.getElementById('replay').textContent`); !strings.Contains(b, "Replay these steps in a new browser (no model)") {
		t.Errorf("the replay button says %q", b)
	}
	click(t, ctx, `#replay`)
	waitJS(t, ctx, `!!document.getElementById('replaygo')`, 10*time.Second)
	ask := eval[string](t, ctx, `document.querySelector('.confirm').innerText`)
	for _, want := range []string{"bank.example", "no model", "typed and sent again", "10 min"} {
		if !strings.Contains(ask, want) {
			t.Errorf("the question before a replay, %q, does not say %q", ask, want)
		}
	}
	snapshot(t, ctx, "console-replay-ask")
	click(t, ctx, `#replaygo`)
	waitJS(t, ctx, `!document.getElementById('home').hidden && !document.getElementById('replaysec').hidden`, 10*time.Second)
	waitJS(t, ctx, `document.querySelector('#replays .replay').innerText.includes('running') && document.querySelector('#replays .replay').innerText.includes('replaying the bank')`, 10*time.Second)
	snapshot(t, ctx, "console-replays")
}
