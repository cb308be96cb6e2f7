package eval

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
)

var wantRe = regexp.MustCompile(`Click on the "([A-Za-z]+)" button`)

// miniwobPlayer is a scripted model for the stand-in MiniWoB++ page: it
// clicks the button the utterance names (or, when wrong is set, another
// one). Asked again, it clicks the START cover if it sees one, which the
// harness must never let happen: it stops as soon as the episode is done.
func miniwobPlayer(wrong bool, calls *atomic.Int64) modelserver.Responder {
	return modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		calls.Add(1)
		obs := req.LastUser()
		// The human display, and the emptied yellow instruction area
		// (#query), which the walker would show as a coloured tile.
		for _, hidden := range []string{"Last reward", "Episodes done", "Query for people", `tile "yellow"`} {
			if strings.Contains(obs, hidden) {
				return failTurn("the observation shows the human display: " + hidden)
			}
		}
		if ref, ok := modelserver.FindRef(obs, "button", "START"); ok {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]any{"ref": ref})}}
		}
		task := ""
		for _, m := range req.Messages {
			if m.Role == "user" && strings.HasPrefix(m.Content, "Task: ") {
				task = m.Content
				break
			}
		}
		m := wantRe.FindStringSubmatch(task)
		if m == nil {
			return failTurn("no instruction in " + task)
		}
		name := m[1]
		if wrong {
			name = map[string]string{"Alpha": "Bravo", "Bravo": "Charlie", "Charlie": "Delta", "Delta": "Alpha"}[name]
		}
		ref, ok := modelserver.FindRef(obs, "button", name)
		if !ok {
			return failTurn("no button " + name)
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]any{"ref": ref})}}
	})
}

func runMiniWoB(t *testing.T, wrong bool, tasks []string, seeds []int64) (*MiniWoB, []Job, *atomic.Int64, Config) {
	t.Helper()
	calls := &atomic.Int64{}
	mw, jobs, cfg := runMiniWoBWith(t, miniwobPlayer(wrong, calls), tasks, seeds)
	return mw, jobs, calls, cfg
}

// runMiniWoBWith sets up the stand-in MiniWoB++ tasks' jobs for the model
// player.
func runMiniWoBWith(t *testing.T, player modelserver.Responder, tasks []string, seeds []int64) (*MiniWoB, []Job, Config) {
	t.Helper()
	srv, err := modelserver.Start(player)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	client, err := llm.New(llm.Config{BaseURL: srv.BaseURL(), Model: "player"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.CloseIdleConnections)
	mw, err := NewMiniWoB("testdata/miniwob", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(mw.Close)
	jobs, err := mw.Jobs(tasks, seeds)
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t)
	cfg.Model, cfg.ModelName = client, "player"
	return mw, jobs, cfg
}

var swatchRe = regexp.MustCompile(`Picture in the instruction:\s*\n\s*tile "[a-z ]*#([0-9a-f]{6})"`)

// A task whose instruction is a picture (a colour swatch: "Select the
// following color"): the instruction's words are the task and out of the
// page, its picture stays in sight, and a player that reads only the
// snapshot wins every episode.
func TestMiniWoBPictureInstruction(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	player := modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		obs := req.LastUser()
		if strings.Contains(obs, "with the color picker") {
			return failTurn("the instruction's words are on the page")
		}
		m := swatchRe.FindStringSubmatch(obs)
		if m == nil {
			return failTurn("no swatch in the snapshot")
		}
		box, ok := modelserver.FindRef(obs, "textbox", "Color")
		submit, ok2 := modelserver.FindRef(obs, "button", "Submit")
		if !ok || !ok2 {
			return failTurn("no color box or Submit")
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{
			modelserver.ToolCall("type", map[string]any{"ref": box, "text": m[1]}),
			modelserver.ToolCall("click", map[string]any{"ref": submit}),
		}}
	})
	_, jobs, cfg := runMiniWoBWith(t, player, []string{"use-colorwheel-2"}, []int64{1, 2, 3})
	for _, r := range NewRunner(cfg).Run(context.Background(), jobs).Runs {
		if !r.Success || r.Reward == nil || *r.Reward != 1 || !strings.HasPrefix(r.Instruction, "Select the following color") {
			t.Errorf("%s: %s %s reward %v %q (instruction %q)", r.Key(), r.Code, r.Message, r.Reward, r.RewardReason, r.Instruction)
		}
	}
}

func TestMiniWoBEpisodes(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	_, jobs, calls, cfg := runMiniWoB(t, false, []string{"click-test", "click-object"}, []int64{1, 2})
	rep := NewRunner(cfg).Run(context.Background(), jobs)
	if len(rep.Runs) != 4 {
		t.Fatalf("%d runs", len(rep.Runs))
	}
	byKey := map[string]string{}
	for _, r := range rep.Runs {
		if !r.Success || r.Reward == nil || *r.Reward != 1 || r.RewardReason != "correct" || r.Seed == nil {
			t.Errorf("%s: %s %s reward %v %q", r.Key(), r.Code, r.Message, r.Reward, r.RewardReason)
			continue
		}
		// The agent itself ended with SUCCESS, and the winning click is
		// in the report.
		if r.AgentCode != "SUCCESS" || len(r.Steps) != 1 || len(r.Steps[0].Actions) != 1 || !strings.Contains(r.Steps[0].Actions[0], "the episode is over (reward 1)") {
			t.Errorf("%s: agent code %s, steps %+v", r.Key(), r.AgentCode, r.Steps)
		}
		if !wantRe.MatchString(r.Instruction) {
			t.Errorf("%s: instruction %q", r.Key(), r.Instruction)
		}
		if prev, ok := byKey[fmt.Sprint(*r.Seed)]; ok && prev != r.Instruction {
			t.Errorf("seed %d gave %q and %q: the episode is not seeded", *r.Seed, prev, r.Instruction)
		}
		byKey[fmt.Sprint(*r.Seed)] = r.Instruction
	}
	// One model call per episode: the run stopped as soon as the episode
	// was done, and the START cover was never clicked.
	if n := calls.Load(); n != 4 {
		t.Errorf("%d model calls for 4 one-click episodes", n)
	}
}

func TestMiniWoBWrongAnswer(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	_, jobs, calls, cfg := runMiniWoB(t, true, []string{"click-test"}, []int64{3})
	rep := NewRunner(cfg).Run(context.Background(), jobs)
	r := rep.Runs[0]
	if r.Success || r.Code != CodeEpisodeFailed || r.Reward == nil || *r.Reward != -1 || !strings.Contains(r.RewardReason, "instead of") {
		t.Fatalf("%s: %s %s reward %v %q", r.Key(), r.Code, r.Message, r.Reward, r.RewardReason)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d model calls, want 1", n)
	}
}

func TestMiniWoBMissingTask(t *testing.T) {
	t.Parallel()
	mw, err := NewMiniWoB("testdata/miniwob", "")
	if err != nil {
		t.Fatal(err)
	}
	defer mw.Close()
	if _, err := mw.Jobs([]string{"click-test", "no-such-task"}, []int64{1}); err == nil || !strings.Contains(err.Error(), "no-such-task") {
		t.Fatalf("err %v", err)
	}
	if _, err := NewMiniWoB(t.TempDir(), ""); err == nil {
		t.Fatal("an empty folder was taken for a MiniWoB++ checkout")
	}
}

// The configuration's bound on iterations (--max-iterations) is honoured,
// not replaced by the episode's default.
func TestMiniWoBHonoursMaxIterations(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	_, jobs, _, cfg := runMiniWoB(t, false, []string{"click-test"}, []int64{1})
	srv, err := modelserver.Start(modelserver.ResponderFunc(func(*modelserver.ChatRequest) modelserver.Turn {
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("scroll", map[string]any{"direction": "down"})}}
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	client, err := llm.New(llm.Config{BaseURL: srv.BaseURL(), Model: "idler"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.CloseIdleConnections)
	cfg.Model = client
	cfg.Options = append(cfg.Options, agent.WithMaxIterations(2))
	r := NewRunner(cfg).Run(context.Background(), jobs).Runs[0]
	if r.AgentCode != string(agent.CodeMaxIterations) || r.Iterations != 2 {
		t.Fatalf("%s: agent code %s after %d iterations: %s", r.Key(), r.AgentCode, r.Iterations, r.Message)
	}
}

// doneAtOnce is a model that calls done without acting.
func doneAtOnce(t *testing.T) *llm.Client {
	t.Helper()
	srv, err := modelserver.Start(modelserver.ResponderFunc(func(*modelserver.ChatRequest) modelserver.Turn {
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": "done"})}}
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	client, err := llm.New(llm.Config{BaseURL: srv.BaseURL(), Model: "idler"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.CloseIdleConnections)
	return client
}

// With EpisodeTimer, the task's own timer (1.5 s in click-timed) ends an
// episode the agent left unfinished, with the benchmark's reward of -1,
// and does not get in the way of one won in time; without it, the same
// episode is merely not done.
func TestMiniWoBEpisodeTimer(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	mw, jobs, _, cfg := runMiniWoB(t, false, []string{"click-timed"}, []int64{1})
	mw.EpisodeTimer = true
	if r := NewRunner(cfg).Run(context.Background(), jobs).Runs[0]; !r.Success || r.Reward == nil || *r.Reward != 1 {
		t.Errorf("won in time: %s %s reward %v %q", r.Code, r.Message, r.Reward, r.RewardReason)
	}

	cfg.Model = doneAtOnce(t)
	r := NewRunner(cfg).Run(context.Background(), jobs).Runs[0]
	if r.Code != CodeEpisodeFailed || r.Reward == nil || *r.Reward != -1 || r.RewardReason != "timed out" || r.DurationMS < 1500 {
		t.Errorf("left to its timer: %s %s reward %v %q after %d ms", r.Code, r.Message, r.Reward, r.RewardReason, r.DurationMS)
	}

	mw.EpisodeTimer = false
	r = NewRunner(cfg).Run(context.Background(), jobs).Runs[0]
	if r.Code != CodeEpisodeNotDone || r.Reward == nil || *r.Reward != 0 || r.RewardReason != "" {
		t.Errorf("without the timer: %s %s reward %v %q", r.Code, r.Message, r.Reward, r.RewardReason)
	}
}

// An episode its own timer ended while the model thought takes no more
// actions: the next one is not sent, and the task ends with the reward.
// The instruction area is out of sight but keeps its place.
func TestMiniWoBTimerEndsEpisodeBeforeAction(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b := chrome.Browser(t, browser.Options{})
	mw, err := NewMiniWoB("testdata/miniwob", "")
	if err != nil {
		t.Fatal(err)
	}
	defer mw.Close()
	mw.EpisodeTimer = true
	if _, ends, err := mw.startEpisode(ctx, b, "click-timed", 1); err != nil || ends.IsZero() {
		t.Fatalf("starting the episode: ends %v, %v", ends, err)
	}
	s, err := b.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(s.Text, "tile") || strings.Contains(s.Text, "Query for people") {
		t.Errorf("the instruction area shows:\n%s", s.Text)
	}
	if top, err := evalJS(ctx, b, "document.getElementById('area').getBoundingClientRect().top"); err != nil || top != float64(50) {
		t.Errorf("the task area moved to %v (%v), want 50 as with the instruction shown", top, err)
	}
	ref, ok := modelserver.FindRef(s.Text, "button", "Alpha")
	if !ok {
		t.Fatalf("no button Alpha:\n%s", s.Text)
	}
	if _, err := evalJS(ctx, b, "core.webagentEnded"); err != nil {
		t.Fatal(err)
	}
	ep := &episode{b: b, timed: true}
	_, err = ep.Do(ctx, contract.Action{Name: contract.ActClick, Ref: ref})
	var over *agent.TaskOver
	if !errors.As(err, &over) || over.Success || !strings.Contains(over.Outcome, "not done: the episode ended before it; the episode is over (reward -1): timed out") {
		t.Fatalf("an action after the timer: %v", err)
	}
	if n, err := evalJS(ctx, b, "window.buttonClicks"); err != nil || n != float64(0) {
		t.Errorf("the page got %v clicks (%v), want none", n, err)
	}
}
