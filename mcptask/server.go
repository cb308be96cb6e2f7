package mcptask

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tasks are where a server's tasks live and are followed: a *Store, which
// runs them in the process, or a backend of one's own (a durable one, whose
// tasks outlive the process). Get, Update and Cancel are the methods'
// meanings; an unknown id is a *jsonrpc.Error of code CodeInvalidParams.
type Tasks interface {
	Get(ctx context.Context, id string) (*Task, error)
	Update(ctx context.Context, id string, answers mcp.InputResponseMap) error
	Cancel(ctx context.Context, id string) error
}

// A Starter starts a call of a tool as a task: it checks the call and
// returns the new task's first state (the task must exist: Get finds it),
// or the call's result at once (arguments that are not valid: a tool
// error, no task), or an error.
type Starter func(ctx context.Context, req *mcp.CallToolRequest) (*Task, *mcp.CallToolResult, error)

// Starts returns a Starter that runs the work prepare returns in store.
func Starts(store *Store, prepare func(ctx context.Context, req *mcp.CallToolRequest) (Work, *mcp.CallToolResult, error)) Starter {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*Task, *mcp.CallToolResult, error) {
		work, now, err := prepare(ctx, req)
		if err != nil || now != nil {
			return nil, now, err
		}
		t, err := store.Start(work)
		if err != nil {
			return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
		return t, nil, nil
	}
}

// Capabilities returns caps (a new value when nil) with the extension
// added, for mcp.ServerOptions.Capabilities. A server given capabilities
// advertises those and the ones the SDK infers (tools, prompts,
// resources), not the SDK's default logging (deprecated from 2026-07-28).
func Capabilities(caps *mcp.ServerCapabilities) *mcp.ServerCapabilities {
	if caps == nil {
		caps = &mcp.ServerCapabilities{}
	}
	caps.AddExtension(Extension, map[string]any{})
	return caps
}

// Register serves the extension on srv: tasks/get, tasks/update and
// tasks/cancel on tasks, and, for the tools of starters, a
// tools/call of a client that declares the extension answered with a new
// task. Calls of other clients, and of other tools, reach the tools'
// handlers as before. srv should advertise the extension (Capabilities).
func Register(srv *mcp.Server, tasks Tasks, starters map[string]Starter) error {
	err := mcp.AddReceivingCustomMethod(srv, MethodGet, func(ctx context.Context, ss *mcp.ServerSession, p *TaskParams) (*Task, error) {
		if err := declares(ss, p.Meta); err != nil {
			return nil, err
		}
		t, err := tasks.Get(ctx, p.TaskID)
		if err != nil {
			return nil, err
		}
		t.ResultType = "complete"
		return t, nil
	})
	if err != nil {
		return err
	}
	err = mcp.AddReceivingCustomMethod(srv, MethodUpdate, func(ctx context.Context, ss *mcp.ServerSession, p *UpdateParams) (*Ack, error) {
		if err := declares(ss, p.Meta); err != nil {
			return nil, err
		}
		if err := tasks.Update(ctx, p.TaskID, p.InputResponses); err != nil {
			return nil, err
		}
		return &Ack{ResultType: "complete"}, nil
	})
	if err != nil {
		return err
	}
	err = mcp.AddReceivingCustomMethod(srv, MethodCancel, func(ctx context.Context, ss *mcp.ServerSession, p *TaskParams) (*Ack, error) {
		if err := declares(ss, p.Meta); err != nil {
			return nil, err
		}
		if err := tasks.Cancel(ctx, p.TaskID); err != nil {
			return nil, err
		}
		return &Ack{ResultType: "complete"}, nil
	})
	if err != nil {
		return err
	}
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			call, ok := req.(*mcp.CallToolRequest)
			if method != "tools/call" || !ok || call.Params == nil {
				return next(ctx, method, req)
			}
			start := starters[call.Params.Name]
			if start == nil || !hasExtension(call.ClientCapabilities()) {
				return next(ctx, method, req)
			}
			t, now, err := start(ctx, call)
			switch {
			case err != nil:
				return nil, err
			case now != nil:
				return now, nil
			}
			t.ResultType = "task"
			t.Meta = map[string]any{RelatedTask: map[string]any{"taskId": t.TaskID}}
			return t, nil
		}
	})
	return nil
}

// declares checks that the client of a tasks/ request declared the
// extension: in the request's _meta (2026-07-28), or when it initialized
// its session.
func declares(ss *mcp.ServerSession, meta mcp.Meta) error {
	if caps, ok := meta[mcp.MetaKeyClientCapabilities]; ok {
		var c mcp.ClientCapabilities
		if b, err := json.Marshal(caps); err == nil && json.Unmarshal(b, &c) == nil && hasExtension(&c) {
			return nil
		}
	} else if ss != nil {
		if p := ss.InitializeParams(); p != nil && hasExtension(p.Capabilities) {
			return nil
		}
	}
	data, _ := json.Marshal(map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{Extension: map[string]any{}}}})
	return &jsonrpc.Error{Code: CodeMissingCapability, Message: "Missing required client capability: declare the " + Extension + " extension to use tasks", Data: data}
}

func hasExtension(c *mcp.ClientCapabilities) bool {
	if c == nil {
		return false
	}
	_, ok := c.Extensions[Extension]
	return ok
}
