package agent_test

import (
	"context"
	"fmt"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/eval"
	"github.com/webagent/webagent/llm"
)

// Embedding the agent: a browser (here the shared real Chromium; in a
// program, browser.Launch), a model client for any OpenAI-compatible
// endpoint (here the bundled scripted server), and bounds.
func ExampleAgent_Run() {
	demo, err := eval.StartDemo() // a local bank site and a scripted model server
	if err != nil {
		panic(err)
	}
	defer demo.Close()

	model, err := llm.New(llm.Config{BaseURL: demo.Model.BaseURL(), Model: "reference"})
	if err != nil {
		panic(err)
	}
	a, err := agent.New(shared, model,
		agent.WithIterationTimeout(30*time.Second),
		agent.WithTaskTimeout(2*time.Minute),
	)
	if err != nil {
		panic(err)
	}
	res := a.Run(context.Background(), demo.Task())
	fmt.Println(res.Code, res.Iterations)
	fmt.Println(res.Answer)
	// Output:
	// SUCCESS 2
	// The checking account balance is $1,234.56.
}
