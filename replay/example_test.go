package replay_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/replay"
	"github.com/webagent/webagent/trace"
)

// Example replays a trace in a fresh browser, with no model. A trace is
// recorded by a run (`webagent run --trace DIR`, or a trace.Writer given
// to agent.WithTracer); this one is written by hand with what replay
// reads: the snapshot the model saw at step 1, in which the button had the
// ref e7, and the click on e7 it chose. Replay finds the same button in
// today's page by its role and name, whatever its ref is now, clicks it,
// and reports the recorded answer.
func Example() {
	ctx := context.Background()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Counter</title>
<button onclick="n.textContent++">Add one</button> Count: <span id=n>0</span>`)
	}))
	defer site.Close()

	dir, err := os.MkdirTemp("", "replay-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	w, err := trace.Create(dir, trace.Header{Task: "Add one to the counter.", URL: site.URL}, trace.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	w.TraceModel(agent.ModelCall{Iteration: 1, Observation: `Snapshot:
button "Add one" [ref=e7]
Count: 0`})
	w.TraceStep(ctx, agent.Step{Iteration: 1, Actions: []agent.ActionRecord{
		{Tool: "click", Args: json.RawMessage(`{"ref":"e7"}`)},
		{Tool: "done", Args: json.RawMessage(`{"answer":"The count is 1."}`)},
	}})
	if err := w.End(ctx, &agent.Result{Code: agent.CodeSuccess, Answer: "The count is 1."}); err != nil {
		fmt.Println(err)
		return
	}

	t, err := trace.Read(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	b, err := browser.Launch(ctx, browser.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	res, err := replay.Run(ctx, b, t, replay.Options{})
	if err != nil {
		fmt.Println(err) // a *replay.StepError when a step could not be replayed
		return
	}
	fmt.Printf("%d action replayed, %d skipped (done)\n", res.Actions, res.Skipped)
	fmt.Println(res.Code, res.Answer)
	count, err := b.Eval(ctx, `document.getElementById("n").textContent`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("the page's count:", count)
	// Output:
	// 1 action replayed, 1 skipped (done)
	// SUCCESS The count is 1.
	// the page's count: 1
}
