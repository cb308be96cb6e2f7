package mcptask_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent/webagent/mcptask"
)

// The two protocol generations a client may speak.
var versions = []string{"2025-11-25", "2026-07-28"}

// serve serves a server with one task tool, "greet": it asks the client
// for a name (elicitation, as an input request) and greets it; with
// {"wait":true} it reports its phase, says so on reported (when not nil)
// and waits for its cancellation instead. A name argument of "" is
// refused at once, without a task.
func serve(t *testing.T, store *mcptask.Store, reported chan<- struct{}) string {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "greeter", Version: "1"}, &mcp.ServerOptions{Capabilities: mcptask.Capabilities(nil)})
	type args struct {
		Wait bool    `json:"wait,omitempty"`
		Name *string `json:"name,omitempty"`
	}
	greet := func(in args) mcptask.Work {
		return func(ctx context.Context, r *mcptask.Run) (*mcp.CallToolResult, error) {
			if in.Wait {
				r.Report("waiting to be cancelled", map[string]any{"phase": "waiting"})
				if reported != nil {
					reported <- struct{}{}
				}
				<-ctx.Done()
				return nil, ctx.Err()
			}
			a, err := r.Ask(ctx, &mcp.ElicitParams{Message: "Your name?", RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}})
			if err != nil {
				return nil, err
			}
			name, _ := a.(*mcp.ElicitResult).Content["name"].(string)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Hello, " + name + "!"}}}, nil
		}
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "greet"}, func(ctx context.Context, req *mcp.CallToolRequest, in args) (*mcp.CallToolResult, any, error) {
		// A client without the extension: the same work, blocking, with
		// no one to ask.
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Hello, stranger!"}}}, nil, nil
	})
	err := mcptask.Register(srv, store, map[string]mcptask.Starter{
		"greet": mcptask.Starts(store, func(ctx context.Context, req *mcp.CallToolRequest) (mcptask.Work, *mcp.CallToolResult, error) {
			var in args
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil || (in.Name != nil && *in.Name == "") {
				return nil, &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "name must not be empty"}}}, nil
			}
			return greet(in), nil, nil
		}),
	})
	if err != nil {
		t.Fatal(err)
	}
	stateful := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	stateless := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v := r.Header.Get("Mcp-Protocol-Version"); v >= "2026-07-28" {
			stateless.ServeHTTP(w, r)
			return
		}
		stateful.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	t.Cleanup(store.Close)
	return hs.URL
}

// connect connects a client speaking version, declaring the extension or
// not.
func connect(t *testing.T, url, version string, declare bool) *mcp.ClientSession {
	t.Helper()
	opts := &mcp.ClientOptions{}
	if declare {
		opts.Capabilities = mcptask.Declare(nil)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts)
	if err := mcptask.Enable(c); err != nil {
		t.Fatal(err)
	}
	cs, err := c.Connect(tctx(t), &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func tctx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func text(res *mcp.CallToolResult) string {
	if res == nil || len(res.Content) == 0 {
		return ""
	}
	tc, _ := res.Content[0].(*mcp.TextContent)
	if tc == nil {
		return ""
	}
	return tc.Text
}

// A task asks its question as an input request, and the client's
// answer, after the connection that started it has gone, finishes it.
func TestTaskAsksAndCompletes(t *testing.T) {
	t.Parallel()
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			url := serve(t, &mcptask.Store{PollInterval: 20 * time.Millisecond}, nil)
			cs := connect(t, url, v, true)
			res, err := cs.CallTool(tctx(t), &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{}})
			if err != nil {
				t.Fatal(err)
			}
			id, ok := mcptask.Started(res)
			if !ok {
				t.Fatalf("not a task: %+v", res)
			}
			_ = cs.Close() // the call's connection goes; the task stays
			cs = connect(t, url, v, true)
			asked := 0
			task, err := mcptask.Follow(tctx(t), cs, id, func(key string, req mcp.InputRequest) (mcp.InputResponse, bool) {
				asked++
				if p, ok := req.(*mcp.ElicitParams); !ok || p.Message != "Your name?" {
					t.Errorf("input request %s = %#v", key, req)
				}
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Luca"}}, true
			})
			if err != nil {
				t.Fatal(err)
			}
			if task.Status != mcptask.Completed || text(task.Result) != "Hello, Luca!" || asked != 1 || task.TTLMs == nil {
				t.Errorf("task = %s %q, asked %d times, ttl %v", task.Status, text(task.Result), asked, task.TTLMs)
			}
		})
	}
}

// Cancelling ends the task cancelled; a client that did not declare the
// extension gets the tool's own blocking answer, and may not ask about
// tasks; bad arguments are refused without a task; an unknown id is an
// invalid-params error.
func TestTaskCancelAndRefusals(t *testing.T) {
	t.Parallel()
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			store := &mcptask.Store{PollInterval: 20 * time.Millisecond}
			reported := make(chan struct{}, 1)
			url := serve(t, store, reported)
			cs := connect(t, url, v, true)
			res, err := cs.CallTool(tctx(t), &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"wait": true}})
			if err != nil {
				t.Fatal(err)
			}
			id, ok := mcptask.Started(res)
			if !ok {
				t.Fatalf("not a task: %+v", res)
			}
			// The call answers as the task starts; its work reports its
			// phase a moment later.
			select {
			case <-reported:
			case <-tctx(t).Done():
				t.Fatal("the task did not report its phase")
			}
			if task, err := mcptask.Get(tctx(t), cs, id); err != nil || task.Status != mcptask.Working || task.StatusMessage == "" && task.Meta["phase"] == nil {
				t.Errorf("running: %+v, %v", task, err)
			}
			if err := mcptask.Cancel(tctx(t), cs, id); err != nil {
				t.Fatal(err)
			}
			select {
			case <-store.Done(id):
			case <-tctx(t).Done():
				t.Fatal("the cancelled task did not end")
			}
			if task, err := mcptask.Get(tctx(t), cs, id); err != nil || task.Status != mcptask.Cancelled {
				t.Errorf("cancelled: %+v, %v", task, err)
			}

			res, err = cs.CallTool(tctx(t), &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"name": ""}})
			if _, isTask := mcptask.Started(res); err != nil || isTask || !res.IsError {
				t.Errorf("bad arguments: %+v, %v", res, err)
			}
			var we *jsonrpc.Error
			if _, err := mcptask.Get(tctx(t), cs, "nosuchtask"); !errors.As(err, &we) || we.Code != jsonrpc.CodeInvalidParams {
				t.Errorf("unknown id: %v", err)
			}

			plain := connect(t, url, v, false)
			res, err = plain.CallTool(tctx(t), &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{}})
			if _, isTask := mcptask.Started(res); err != nil || isTask || text(res) != "Hello, stranger!" {
				t.Errorf("a client without the extension: %+v %q, %v", res, text(res), err)
			}
			if _, err := mcptask.Get(tctx(t), plain, id); !errors.As(err, &we) || we.Code != mcptask.CodeMissingCapability {
				t.Errorf("tasks/get without the extension: %v", err)
			}
		})
	}
}
