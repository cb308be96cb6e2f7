package judge_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/webagent/webagent/judge"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
)

// A judge on any OpenAI-compatible model (here a scripted one on
// loopback) decides a trajectory that has no check: key points, the
// steps that matter, a verdict with its reasons.
func Example() {
	srv, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		switch sys := req.Messages[0].Content; {
		case strings.Contains(sys, "list its key points"):
			return modelserver.Turn{Text: "Key Points:\n1. Find the opening hours\n2. Give Saturday's hours"}
		case strings.Contains(sys, "one step"):
			if strings.Contains(req.LastUser(), "Saturday 9-13") {
				return modelserver.Turn{Text: "Reasoning: the hours are shown.\nScore: 5"}
			}
			return modelserver.Turn{Text: "Reasoning: a menu.\nScore: 1"}
		}
		return modelserver.Turn{Text: "Thoughts: the page shows Saturday 9-13, as answered.\nStatus: success"}
	}))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	model, _ := llm.New(llm.Config{BaseURL: srv.BaseURL(), Model: "o4-mini"})
	defer model.CloseIdleConnections()

	j, _ := judge.New(judge.Config{Model: model, ModelName: "o4-mini"}) // Vision: true to show screenshots
	v := j.Judge(context.Background(), judge.Trajectory{
		Task:   "When does the library open on Saturday?",
		Answer: "9 to 13",
		Steps: []judge.Step{
			{Iteration: 1, Actions: []string{`click {"ref":"e2"} → the page navigated to /hours`}, Page: "Home. Menu: News, Hours"},
			{Iteration: 2, Actions: []string{`extract → Opening hours: Monday-Friday 9-18, Saturday 9-13`}, Page: "Opening hours: Monday-Friday 9-18, Saturday 9-13"},
		},
	})
	fmt.Println(v)
	fmt.Println(v.KeyPoints)
	fmt.Println(v.Reasons)
	// Output:
	// success (2 key points, 1 of 2 steps chosen)
	// [Find the opening hours Give Saturday's hours]
	// the page shows Saturday 9-13, as answered.
}
