package modelserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
)

// Example scripts a model that is rate limited once and then asks for a
// click, and talks to it with package llm as an embedder's test would: the
// client retries the 429 and gets the scripted tool call, and the server
// recorded both requests.
func Example() {
	srv, err := modelserver.Start(modelserver.Script(
		modelserver.Turn{Fault: modelserver.RateLimited},
		modelserver.Turn{
			Text:      "Opening the sign-in form.",
			ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]string{"ref": "e3"})},
		},
	))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()

	client, err := llm.New(llm.Config{
		BaseURL:        srv.BaseURL(),
		Model:          "scripted",
		RetryBaseDelay: 10 * time.Millisecond,
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
	reqs := srv.Requests()
	fmt.Println(len(reqs), "requests; the last one asked:", reqs[len(reqs)-1].Req.LastUser())
	// Output:
	// Opening the sign-in form.
	// click {"ref":"e3"}
	// 2 requests; the last one asked: Sign in to the shop.
}

// ExampleResponderFunc answers from the request: it finds the ref of the
// "Sign in" button in the page snapshot the client sent and clicks it.
// The client here is plain net/http, as any OpenAI-compatible client would
// do.
func ExampleResponderFunc() {
	srv, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		ref, ok := modelserver.FindRef(req.LastUser(), "button", "Sign in")
		if !ok {
			return modelserver.Turn{Text: "There is no Sign in button."}
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]string{"ref": ref})}}
	}))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()

	snapshot := `heading "Shop" [level=1]
textbox "Email" [ref=e1]
button "Sign in" [ref=e2]`
	body, _ := json.Marshal(map[string]any{
		"model":    "scripted",
		"messages": []map[string]string{{"role": "user", "content": snapshot}},
	})
	resp, err := http.Post(srv.BaseURL()+"/chat/completions", "application/json", bytes.NewReader(body))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var completion struct {
		Choices []struct {
			Message struct {
				ToolCalls []struct {
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			}
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&completion); err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range completion.Choices[0].Message.ToolCalls {
		fmt.Println(c.Function.Name, c.Function.Arguments)
	}
	// Output:
	// click {"ref":"e2"}
}
