package trace_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/trace"
)

// Example records a run of the agent as a trace, as `webagent run --trace
// DIR` does, and reads it back: each step's actions and their outcomes,
// the screenshot taken after each step, and how the run ended. The page is
// served by net/http/httptest and the model is a scripted one
// (modelserver) that clicks the button, then answers from the page.
func Example() {
	ctx := context.Background()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Counter</title>
<button onclick="n.textContent++">Add one</button> Count: <span id=n>0</span>`)
	}))
	defer site.Close()

	srv, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		page := req.LastUser()
		if strings.Contains(page, "Count: 1") {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]string{"answer": "The count is 1."})}}
		}
		ref, _ := modelserver.FindRef(page, "button", "Add one")
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]string{"ref": ref})}}
	}))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	model, err := llm.New(llm.Config{BaseURL: srv.BaseURL(), Model: "scripted"})
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

	dir, err := os.MkdirTemp("", "trace-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)

	// The Writer is the run's Tracer; the browser takes its screenshots.
	task := agent.Task{URL: site.URL, Instruction: "Add one to the counter and tell me the count."}
	w, err := trace.Create(dir, trace.Header{Task: task.Instruction, URL: task.URL}, trace.Options{Shots: b})
	if err != nil {
		fmt.Println(err)
		return
	}
	a, err := agent.New(b, model, agent.WithTracer(w))
	if err != nil {
		fmt.Println(err)
		return
	}
	res := a.Run(ctx, task)
	if err := w.End(ctx, res); err != nil { // writes the viewer, index.html
		fmt.Println(err)
		return
	}

	t, err := trace.Read(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("task:", t.Header.Task)
	for _, st := range t.Steps {
		for _, act := range st.Step.Actions {
			fmt.Printf("step %d: %s %s -> %s\n", st.Iteration, act.Tool, act.Args, act.Outcome)
		}
		if _, err := os.Stat(filepath.Join(dir, st.Screenshot)); err == nil {
			fmt.Printf("step %d: screenshot %s\n", st.Iteration, st.Screenshot)
		}
	}
	fmt.Println("end:", t.End.Result.Code, t.End.Result.Answer)
	if _, err := os.Stat(filepath.Join(dir, trace.ViewerFile)); err == nil {
		fmt.Println("viewer:", trace.ViewerFile)
	}
	// Output:
	// task: Add one to the counter and tell me the count.
	// step 1: click {"ref":"e1"} -> clicked button "Add one" [ref=e1]; the page changed
	// step 1: screenshot shots/0001.jpg
	// step 2: done {"answer":"The count is 1."} -> task finished
	// step 2: screenshot shots/0002.jpg
	// end: SUCCESS The count is 1.
	// viewer: index.html
}
