package mcpserver

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent/webagent/agent"
)

// elicitor asks the client's user, through MCP elicitation, whether an
// action run_task's policy wants confirmed may run (agent.Confirmer).
type elicitor struct{ ss *mcp.ServerSession }

// confirmSchema is the form shown with the question: one yes/no field,
// yes by default, so that a client's plain accept allows and its decline
// or cancel refuses.
var confirmSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"allow": map[string]any{"type": "boolean", "title": "Allow this action", "default": true},
	},
}

// Confirm asks the client's user. An accept is a yes unless the form says
// allow: false; a decline or a cancel is a no. A client without
// elicitation cannot ask: the answer is a no, and the error says why.
func (e elicitor) Confirm(ctx context.Context, c agent.Confirmation) (bool, error) {
	if p := e.ss.InitializeParams(); p == nil || p.Capabilities == nil || p.Capabilities.Elicitation == nil {
		return false, errors.New("the MCP client cannot ask its user (it does not support elicitation)")
	}
	res, err := e.ss.Elicit(ctx, &mcp.ElicitParams{
		Message:         "webagent's action policy asks: " + c.Question,
		RequestedSchema: confirmSchema,
	})
	if err != nil {
		return false, fmt.Errorf("asking the client's user: %w", err)
	}
	return allowed(res), nil
}

// allowed reads a person's answer to confirmSchema's form: an accept is a
// yes unless the form says allow: false; a decline or a cancel is a no.
func allowed(res *mcp.ElicitResult) bool {
	if res == nil || res.Action != "accept" {
		return false
	}
	allow, ok := res.Content["allow"].(bool)
	return !ok || allow
}
