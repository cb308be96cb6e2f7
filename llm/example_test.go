package llm_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
)

// Example talks to the local test server, which stands in for OpenAI or
// Ollama, and prints the tool call the model asked for.
func Example() {
	srv, err := modelserver.Start(modelserver.Script(modelserver.Turn{
		Text:      "Opening the sign-in form.",
		ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]string{"ref": "e3"})},
	}))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()

	client, err := llm.New(llm.Config{
		BaseURL:    srv.BaseURL(), // e.g. http://localhost:11434/v1 for Ollama
		Model:      "llama3.1",
		Inactivity: llm.DefaultInactivity,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer client.CloseIdleConnections()

	reply, err := client.Complete(context.Background(), contract.Request{
		Messages: []contract.Message{{Role: contract.RoleUser, Content: "Sign in to the shop."}},
		Tools: []contract.ToolDef{{
			Name:        "click",
			Description: "Click the element with the given ref.",
			Parameters:  json.RawMessage(`{"type":"object","properties":{"ref":{"type":"string"}},"required":["ref"]}`),
		}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(reply.Content)
	for _, call := range reply.ToolCalls {
		fmt.Println(call.Name, call.Arguments)
	}
	// Output:
	// Opening the sign-in form.
	// click {"ref":"e3"}
}
