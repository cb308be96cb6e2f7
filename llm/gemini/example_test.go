package gemini_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm/gemini"
)

// Example asks a stand-in for the Gemini API (one server-sent event) and
// prints the function call the model asked for.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// POST /v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse,
		// the key in the x-goog-api-key header.
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, `data: {"candidates":[{"content":{"role":"model","parts":[`+
			`{"functionCall":{"name":"click","args":{"ref":"e3"}}}]},"finishReason":"STOP"}],`+
			`"usageMetadata":{"promptTokenCount":20,"candidatesTokenCount":5,"totalTokenCount":25}}`+"\r\n\r\n")
	}))
	defer srv.Close()

	client, err := gemini.New(gemini.Config{
		BaseURL:    srv.URL + "/v1beta", // gemini.DefaultBaseURL for Google's
		APIKey:     "my-key",            // os.Getenv(gemini.KeyEnv)
		Model:      "gemini-2.5-flash",
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
		fmt.Println(call.Name, call.Arguments)
	}
	fmt.Println(reply.Usage.TotalTokens, "tokens")
	// Output:
	// click {"ref":"e3"}
	// 25 tokens
}
