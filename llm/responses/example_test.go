package responses_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm/responses"
)

// Example asks a stand-in for OpenAI's Responses API (a few lines of
// server-sent events) and prints the tool call the model asked for.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		item := `{"id":"fc_1","type":"function_call","status":"completed","call_id":"call_1","name":"click","arguments":"{\"ref\":\"e3\"}"}`
		_, _ = io.WriteString(w, "event: response.output_item.done\n"+
			`data: {"type":"response.output_item.done","sequence_number":1,"output_index":0,"item":`+item+"}\n\n"+
			"event: response.completed\n"+
			`data: {"type":"response.completed","sequence_number":2,"response":{"id":"resp_1","object":"response","status":"completed","output":[`+item+`],`+
			`"usage":{"input_tokens":20,"input_tokens_details":{"cached_tokens":0},"output_tokens":5,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":25}}}`+"\n\n")
	}))
	defer srv.Close()

	client, err := responses.New(responses.Config{
		BaseURL:    srv.URL + "/v1", // https://api.openai.com/v1 for OpenAI
		Model:      "gpt-5.4",
		Inactivity: time.Minute,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer client.CloseIdleConnections()

	reply, err := client.Complete(context.Background(), contract.Request{
		Messages: []contract.Message{
			{Role: contract.RoleSystem, Content: "You operate a browser."},
			{Role: contract.RoleUser, Content: "Open the sign-in form."},
		},
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
	for _, call := range reply.ToolCalls {
		fmt.Println(call.ID, call.Name, call.Arguments)
	}
	fmt.Println(reply.Usage.TotalTokens, "tokens")
	// Output:
	// call_1 click {"ref":"e3"}
	// 25 tokens
}
