package eval

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/webagent/webagent/agent"
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
		for _, hidden := range []string{"Last reward", "Episodes done", "Query for people"} {
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
	srv, err := modelserver.Start(miniwobPlayer(wrong, calls))
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
	return mw, jobs, calls, cfg
}

func TestMiniWoBEpisodes(t *testing.T) {
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
