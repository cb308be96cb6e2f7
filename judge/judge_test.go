package judge_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"

	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/judge"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// judgeServer is a scripted judge: it lists two key points, scores each
// step by the score written in its page ("SCORE=n"), and gives verdict.
func judgeServer(verdict string) modelserver.Responder {
	return modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		sys, user := req.Messages[0].Content, req.LastUser()
		switch {
		case strings.Contains(sys, "list its key points"):
			return modelserver.Turn{Text: "**Key Points**:\n1. Open the contact page\n2. Send the message \"hello\""}
		case strings.Contains(sys, "one step of a web agent's work"):
			score := "1"
			if i := strings.Index(user, "SCORE="); i >= 0 {
				score = user[i+6 : i+7]
			}
			if strings.Contains(user, "attached") { // vision: the score is in the step's URL
				if i := strings.Index(user, "score-"); i >= 0 {
					score = user[i+6 : i+7]
				}
			}
			return modelserver.Turn{Text: "Reasoning: the page shows the form.\nScore: " + score}
		default:
			return modelserver.Turn{Text: verdict}
		}
	})
}

func client(t *testing.T, r modelserver.Responder) (*llm.Client, *modelserver.Server) {
	t.Helper()
	srv, err := modelserver.Start(r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	c, err := llm.New(llm.Config{BaseURL: srv.BaseURL(), Model: "judge-model", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c, srv
}

func pngOf(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	img.Set(1, 1, color.RGBA{200, 0, 0, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func trajectory(t *testing.T) judge.Trajectory {
	shot := pngOf(t)
	return judge.Trajectory{
		Task: "Send the message hello on the contact page", URL: "http://127.0.0.1:1/",
		Answer: "I sent it.",
		Steps: []judge.Step{
			{Iteration: 1, URL: "http://127.0.0.1:1/score-4", Actions: []string{`click {"ref":"e3"} → the page navigated to /contact`}, Page: "Contact us SCORE=4", Screenshot: shot, ScreenshotFile: "shots/0001.jpg"},
			{Iteration: 2, URL: "http://127.0.0.1:1/score-1", Actions: []string{`scroll {"direction":"down"} → scrolled`}, Page: "Footer SCORE=1", Screenshot: shot, ScreenshotFile: "shots/0002.jpg"},
			{Iteration: 3, URL: "http://127.0.0.1:1/score-5", Actions: []string{`type {"ref":"e7","text":"hello"} → typed`, `click {"ref":"e9"} → clicked`},
				Blocked: []string{"POST http://127.0.0.1:1/send would have sent: message=hello"}, Page: "Message: hello SCORE=5", Screenshot: shot, ScreenshotFile: "shots/0003.jpg"},
		},
	}
}

// TestVerdictFromText: without vision, the judge reads page texts; steps 1
// and 3 score at least 3 and are chosen; the verdict request holds the
// key points, the factual history with the blocked request, the chosen
// pages (not step 2's) and the agent's answer marked as a claim; no
// request carries an image.
func TestVerdictFromText(t *testing.T) {
	t.Parallel()
	c, srv := client(t, judgeServer("Thoughts: the form was filled and sent.\nStatus: success"))
	j, err := judge.New(judge.Config{Model: c, ModelName: "judge-model"})
	if err != nil {
		t.Fatal(err)
	}
	v := j.Judge(context.Background(), trajectory(t))
	if v.Outcome != judge.Success || v.Reasons != "the form was filled and sent." || len(v.KeyPoints) != 2 || v.KeyPoints[1] != `Send the message "hello"` {
		t.Fatalf("verdict %+v", v)
	}
	var chosen []int
	for _, s := range v.Steps {
		if s.Chosen {
			chosen = append(chosen, s.Iteration)
		}
	}
	if len(v.Steps) != 3 || len(chosen) != 2 || chosen[0] != 1 || chosen[1] != 3 || v.Steps[1].Score != 1 || v.Steps[0].Reason != "the page shows the form." {
		t.Errorf("steps %+v", v.Steps)
	}
	if v.Calls != 5 || v.Usage.TotalTokens == 0 || v.Model != "judge-model" || v.Vision {
		t.Errorf("calls %d, usage %+v, model %q", v.Calls, v.Usage, v.Model)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1].Req.LastUser()
	for _, want := range []string{"1. Open the contact page", `click {"ref":"e3"} → the page navigated to /contact`,
		"blocked by --read-only, never sent: POST http://127.0.0.1:1/send would have sent: message=hello",
		"its own claim", "I sent it.", "Contact us SCORE=4", "Message: hello SCORE=5"} {
		if !strings.Contains(last, want) {
			t.Errorf("the verdict request lacks %q:\n%s", want, last)
		}
	}
	if strings.Contains(last, "Footer") {
		t.Errorf("the verdict request shows a step that was not chosen:\n%s", last)
	}
	for _, r := range reqs {
		for _, m := range r.Req.Messages {
			if m.Images > 0 {
				t.Errorf("request %d sent an image without vision", r.Index)
			}
		}
	}
}

// TestVerdictWithVision: each step's screenshot goes to its scoring call,
// and the chosen ones to the verdict; a failure verdict is a failure.
func TestVerdictWithVision(t *testing.T) {
	t.Parallel()
	c, srv := client(t, judgeServer("**Thoughts**: the message was never sent.\n**Status**: \"failure\""))
	j, _ := judge.New(judge.Config{Model: c, Vision: true, Parallel: 1})
	v := j.Judge(context.Background(), trajectory(t))
	if v.Outcome != judge.Failure || v.Reasons != "the message was never sent." || !v.Vision {
		t.Fatalf("verdict %+v", v)
	}
	reqs := srv.Requests()
	images := func(r *modelserver.Recorded) int {
		n := 0
		for _, m := range r.Req.Messages {
			n += m.Images
		}
		return n
	}
	if images(reqs[0]) != 0 || images(reqs[1]) != 1 || images(reqs[len(reqs)-1]) != 2 {
		t.Errorf("images per request: %d, %d, last %d", images(reqs[0]), images(reqs[1]), images(reqs[len(reqs)-1]))
	}
	if v.Steps[0].Screenshot != "shots/0001.jpg" {
		t.Errorf("steps %+v", v.Steps)
	}
}

// TestStalledJudgeIsUnscoredWithinItsBound: a judge model that never
// answers the verdict leaves the trajectory unscored at the judge's
// timeout, keeping what it had learnt, and the request is closed.
func TestStalledJudgeIsUnscoredWithinItsBound(t *testing.T) {
	t.Parallel()
	base := judgeServer("")
	c, srv := client(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		if strings.Contains(req.Messages[0].Content, "completed its task") {
			return modelserver.Turn{Fault: modelserver.NoHeaders}
		}
		return base.Respond(req)
	}))
	const bound = 1500 * time.Millisecond
	j, _ := judge.New(judge.Config{Model: c, Timeout: bound})
	start := time.Now()
	v := j.Judge(context.Background(), trajectory(t))
	took := time.Since(start)
	if v.Outcome != judge.Unscored || !strings.Contains(v.Why, "did not decide within its timeout of 1.5s") || len(v.KeyPoints) != 2 || len(v.Steps) != 3 {
		t.Fatalf("verdict %+v", v)
	}
	if took < bound || took > bound+time.Second {
		t.Errorf("took %s; the bound is %s", took, bound)
	}
	reqs := srv.Requests()
	select {
	case <-reqs[len(reqs)-1].Gone:
	case <-time.After(5 * time.Second):
		t.Error("the stalled request was never closed")
	}
}

func TestFailingJudgeIsUnscored(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		r    modelserver.Responder
		want string
	}{
		{"server error", modelserver.Script(modelserver.Turn{Fault: modelserver.ServerError, Status: 400, Text: "model not found"}), "model not found"},
		{"no status", judgeServer("I think it went well."), "has no verdict"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := client(t, tc.r)
			j, _ := judge.New(judge.Config{Model: c})
			v := j.Judge(context.Background(), trajectory(t))
			if v.Outcome != judge.Unscored || !strings.Contains(v.Why, tc.want) || v.Scored() {
				t.Fatalf("verdict %+v", v)
			}
		})
	}
}

func TestNewChecksConfig(t *testing.T) {
	t.Parallel()
	if _, err := judge.New(judge.Config{}); err == nil {
		t.Error("no model accepted")
	}
	m := contract.ModelFunc(func(context.Context, contract.Request) (contract.Reply, error) { return contract.Reply{}, nil })
	if _, err := judge.New(judge.Config{Model: m, Threshold: 6}); err == nil {
		t.Error("threshold 6 accepted")
	}
}
