package mcptask_test

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent/webagent/mcptask"
)

// A tool call answered with a task, which asks its client a question,
// followed to its end by the client.
func Example() {
	ctx := context.Background()
	store := &mcptask.Store{}
	defer store.Close()
	srv := mcp.NewServer(&mcp.Implementation{Name: "greeter"}, &mcp.ServerOptions{Capabilities: mcptask.Capabilities(nil)})
	mcp.AddTool(srv, &mcp.Tool{Name: "greet"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Hello, stranger!"}}}, nil, nil
	})
	_ = mcptask.Register(srv, store, map[string]mcptask.Starter{
		"greet": mcptask.Starts(store, func(context.Context, *mcp.CallToolRequest) (mcptask.Work, *mcp.CallToolResult, error) {
			return func(ctx context.Context, r *mcptask.Run) (*mcp.CallToolResult, error) {
				a, err := r.Ask(ctx, &mcp.ElicitParams{Message: "Your name?", RequestedSchema: map[string]any{"type": "object"}})
				if err != nil {
					return nil, err
				}
				name, _ := a.(*mcp.ElicitResult).Content["name"].(string)
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Hello, " + name + "!"}}}, nil
			}, nil, nil
		}),
	})
	st, ct := mcp.NewInMemoryTransports()
	ss, _ := srv.Connect(ctx, st, nil)
	defer ss.Close()

	client := mcp.NewClient(&mcp.Implementation{Name: "client"}, &mcp.ClientOptions{Capabilities: mcptask.Declare(nil)})
	_ = mcptask.Enable(client)
	cs, _ := client.Connect(ctx, ct, nil)
	defer cs.Close()
	res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{}})
	id, _ := mcptask.Started(res)
	task, _ := mcptask.Follow(ctx, cs, id, func(_ string, req mcp.InputRequest) (mcp.InputResponse, bool) {
		fmt.Println("asked:", req.(*mcp.ElicitParams).Message)
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ann"}}, true
	})
	fmt.Println(task.Status, task.Result.Content[0].(*mcp.TextContent).Text)
	// Output:
	// asked: Your name?
	// completed Hello, Ann!
}
