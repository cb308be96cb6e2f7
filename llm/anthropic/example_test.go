package anthropic_test

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm/anthropic"
)

// A Client is a contract.Model: the loop, or any program, asks it for the
// next reply. Here it talks to a stand-in for api.anthropic.com.
func Example() {
	srv := newExampleServer(func(w http.ResponseWriter, _ *http.Request, _ map[string]any, _ int) {
		streamReply(w, "", "Hello from Claude.", nil)
	})
	defer srv.Close()

	client, err := anthropic.New(anthropic.Config{BaseURL: srv.URL, APIKey: "sk-ant-example", Model: "claude-sonnet-4-5",
		Inactivity: 30 * time.Second})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer client.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	reply, err := client.Complete(ctx, contract.Request{Messages: []contract.Message{
		{Role: contract.RoleSystem, Content: "You are terse."},
		{Role: contract.RoleUser, Content: "Say hello."},
	}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(reply.Content, reply.Usage.CachedTokens > 0)
	// Output: Hello from Claude. true
}
