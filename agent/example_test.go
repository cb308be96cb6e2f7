package agent_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
)

// Embedding the agent: a real Chromium (browser.Launch), a model client for
// any OpenAI-compatible endpoint (llm.New), and bounds. The model here is
// package modelserver's scripted server, which reads the page the loop
// sends it: it clicks "Show balance", then answers with what the page
// shows. In a program, the URL is any site and the model any endpoint.
//
// Under go test -short it is the Go package's one real-browser run
// (package tier).
func ExampleAgent_Run() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Bank</title>
			<button onclick="document.getElementById('b').textContent = 'Balance: $1,234.56'">Show balance</button>
			<p id="b"></p>`)
	}))
	defer site.Close()

	scripted, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		page := req.LastUser() // the latest observation: the page's snapshot
		if strings.Contains(page, "$1,234.56") {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]string{"answer": "The balance is $1,234.56."})}}
		}
		ref, _ := modelserver.FindRef(page, "button", "Show balance")
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]string{"ref": ref})}}
	}))
	if err != nil {
		panic(err)
	}
	defer scripted.Close()

	ctx := context.Background()
	b, err := browser.Launch(ctx, browser.Options{}) // ctx bounds the start only
	if err != nil {
		panic(err)
	}
	defer b.Close() // Chromium and its profile are removed
	model, err := llm.New(llm.Config{BaseURL: scripted.BaseURL(), Model: "scripted"})
	if err != nil {
		panic(err)
	}
	a, err := agent.New(b, model,
		agent.WithIterationTimeout(30*time.Second),
		agent.WithTaskTimeout(2*time.Minute),
	)
	if err != nil {
		panic(err)
	}
	res := a.Run(ctx, agent.Task{URL: site.URL, Instruction: "What is the balance of the account?"})
	fmt.Println(res.Code, res.Iterations)
	fmt.Println(res.Answer)
	// Output:
	// SUCCESS 2
	// The balance is $1,234.56.
}
