package mcptask

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Enable lets c send the extension's methods. Call it before connecting.
func Enable(c *mcp.Client) error {
	return errors.Join(
		mcp.AddSendingCustomMethod[*TaskParams, *Task](c, MethodGet),
		mcp.AddSendingCustomMethod[*UpdateParams, *Ack](c, MethodUpdate),
		mcp.AddSendingCustomMethod[*TaskParams, *Ack](c, MethodCancel),
	)
}

// Declare returns caps (a new value when nil) with the extension added, for
// mcp.ClientOptions.Capabilities. A client given capabilities declares
// those and the ones the SDK infers from its handlers (sampling,
// elicitation), not the SDK's default roots (deprecated from 2026-07-28).
func Declare(caps *mcp.ClientCapabilities) *mcp.ClientCapabilities {
	if caps == nil {
		caps = &mcp.ClientCapabilities{}
	}
	caps.AddExtension(Extension, map[string]any{})
	return caps
}

// Started returns the id of the task a tools/call result stands for, if it
// is a task's creation result.
func Started(res *mcp.CallToolResult) (string, bool) {
	if res == nil {
		return "", false
	}
	rel, _ := res.Meta[RelatedTask].(map[string]any)
	id, _ := rel["taskId"].(string)
	return id, id != ""
}

// Get returns the task's state.
func Get(ctx context.Context, cs *mcp.ClientSession, id string) (*Task, error) {
	return mcp.CallCustomMethod[*TaskParams, *Task](ctx, cs, MethodGet, &TaskParams{TaskID: id})
}

// Update answers the task's input requests.
func Update(ctx context.Context, cs *mcp.ClientSession, id string, answers mcp.InputResponseMap) error {
	_, err := mcp.CallCustomMethod[*UpdateParams, *Ack](ctx, cs, MethodUpdate, &UpdateParams{TaskID: id, InputResponses: answers})
	return err
}

// Cancel asks the server to cancel the task.
func Cancel(ctx context.Context, cs *mcp.ClientSession, id string) error {
	_, err := mcp.CallCustomMethod[*TaskParams, *Ack](ctx, cs, MethodCancel, &TaskParams{TaskID: id})
	return err
}

// Answerer answers one input request of a task; ok false leaves it
// unanswered for now.
type Answerer func(key string, req mcp.InputRequest) (resp mcp.InputResponse, ok bool)

// Follow polls the task, at the interval the server suggests, until it
// ends or ctx does, answering each new input request with answer (nil
// answers none), and returns its last state.
func Follow(ctx context.Context, cs *mcp.ClientSession, id string, answer Answerer) (*Task, error) {
	answered := map[string]bool{}
	for {
		t, err := Get(ctx, cs, id)
		if err != nil {
			return nil, err
		}
		if t.Status.Terminal() {
			return t, nil
		}
		answers := mcp.InputResponseMap{}
		for k, req := range t.InputRequests {
			if answered[k] || answer == nil {
				continue
			}
			if resp, ok := answer(k, req); ok {
				answers[k], answered[k] = resp, true
			}
		}
		if len(answers) > 0 {
			if err := Update(ctx, cs, id, answers); err != nil {
				return nil, fmt.Errorf("answering task %s: %w", id, err)
			}
			continue
		}
		wait := time.NewTimer(time.Duration(max(t.PollIntervalMs, 10)) * time.Millisecond)
		select {
		case <-wait.C:
		case <-ctx.Done():
			wait.Stop()
			return t, ctx.Err()
		}
	}
}
