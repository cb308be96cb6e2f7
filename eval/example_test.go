package eval_test

import (
	"context"
	"fmt"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/eval"
	"github.com/webagent/webagent/llm"
)

// ExampleRunner_Run runs one job of the fault suite, as `webagent eval
// --faults` does: the runner starts a Chromium for its worker, the job
// serves its fault site and a scripted model that answers 429 Too Many
// Requests twice before it lets the agent finish, and the report says how
// the run ended and whether that was an acceptable ending within the
// fault's bound.
func ExampleRunner_Run() {
	var jobs []eval.Job
	for _, j := range eval.FaultJobs() {
		if j.ID == "rate-limit-burst" {
			jobs = append(jobs, j)
		}
	}
	rep := eval.NewRunner(eval.Config{Workers: 1}).Run(context.Background(), jobs)
	for _, run := range rep.Runs {
		fmt.Println(run.Suite, run.ID, run.Code, run.Success)
		fmt.Println("expected:", run.Expected)
		fmt.Println("seen:", run.Seen)
	}
	// Output:
	// faults rate-limit-burst SUCCESS true
	// expected: the client retries and the task succeeds: SUCCESS
	// seen: SUCCESS
}

// ExampleStartDemo runs the demo task, as `webagent demo` does: a bank
// site and the demo's reference model, a scripted OpenAI-compatible server
// that reads each snapshot and signs in, then reads the balance. The
// password is a secret: the model types <secret>password</secret> and
// never sees the value.
func ExampleStartDemo() {
	ctx := context.Background()
	demo, err := eval.StartDemo()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer demo.Close()

	model, err := llm.New(llm.Config{BaseURL: demo.Model.BaseURL(), Model: eval.ReferenceModel})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer model.CloseIdleConnections()
	b, err := browser.Launch(ctx, browser.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()

	a, err := agent.New(b, model)
	if err != nil {
		fmt.Println(err)
		return
	}
	res := a.Run(ctx, demo.Task())
	fmt.Println(res.Code, res.Iterations)
	fmt.Println(res.Answer)
	// Output:
	// SUCCESS 2
	// The checking account balance is $1,234.56.
}
