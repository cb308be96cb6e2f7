package mcpserver

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/mcptask"
)

// A run's questions to the client's user: ask_human (a CAPTCHA hand-over
// among them) and the action policy's confirmations. Every path puts them
// through one asker, which is how the run reaches its client: an
// elicitation inside the call (elicitAsker, before protocol 2026-07-28),
// an input request of a task (taskAsker), or an input request of the
// call's result, answered by the client's retry (roundRun, from
// 2026-07-28; roundtrip.go).

// asker puts one question to the client's user and returns the answer,
// or an error when it cannot ask or ctx ends first.
type asker interface {
	ask(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error)
}

// questions are a run's agent.Human and agent.Confirmer, asked through a.
type questions struct{ a asker }

// confirmSchema is the form shown with a confirmation: one yes/no field,
// yes by default, so that a client's plain accept allows and its decline
// or cancel refuses.
var confirmSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"allow": map[string]any{"type": "boolean", "title": "Allow this action", "default": true},
	},
}

// answerSchema is the form of an ask_human question: one text field.
var answerSchema = map[string]any{
	"type":       "object",
	"properties": map[string]any{"answer": map[string]any{"type": "string", "title": "Your answer"}},
	"required":   []any{"answer"},
}

// Ask puts an ask_human question; a decline is an answer that says so.
func (q questions) Ask(ctx context.Context, question string) (string, error) {
	res, err := q.a.ask(ctx, &mcp.ElicitParams{Message: "webagent's agent asks: " + question, RequestedSchema: answerSchema})
	if err != nil {
		return "", err
	}
	if res.Action != "accept" {
		return "", fmt.Errorf("the person did not answer (%s)", res.Action)
	}
	answer, ok := res.Content["answer"].(string)
	if !ok {
		return "", errors.New("the answer had no text")
	}
	return answer, nil
}

// Confirm asks whether an action the policy wants confirmed may run. An
// accept is a yes unless the form says allow: false; a decline or a
// cancel is a no, and so is a client that cannot ask (the error says why).
func (q questions) Confirm(ctx context.Context, c agent.Confirmation) (bool, error) {
	res, err := q.a.ask(ctx, &mcp.ElicitParams{Message: "webagent's action policy asks: " + c.Question, RequestedSchema: confirmSchema})
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

// errCannotAsk: the client declared no elicitation.
var errCannotAsk = errors.New("the MCP client cannot ask its user (it does not support elicitation)")

// elicitAsker asks through MCP elicitation inside the call, as a client
// before protocol 2026-07-28 takes it.
type elicitAsker struct{ ss *mcp.ServerSession }

func (e elicitAsker) ask(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	if ip := e.ss.InitializeParams(); ip == nil || ip.Capabilities == nil || ip.Capabilities.Elicitation == nil {
		return nil, errCannotAsk
	}
	return e.ss.Elicit(ctx, p)
}

// taskAsker asks as an input request of a task, answered by tasks/update.
type taskAsker struct{ r *mcptask.Run }

func (t taskAsker) ask(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	resp, err := t.r.Ask(ctx, p)
	if err != nil {
		return nil, err
	}
	return elicitAnswer(resp)
}

// elicitAnswer is an input response read as the elicitation's answer.
func elicitAnswer(resp mcp.InputResponse) (*mcp.ElicitResult, error) {
	res, ok := resp.(*mcp.ElicitResult)
	if !ok || res == nil {
		return nil, fmt.Errorf("the client answered with a %T, not an elicitation result", resp)
	}
	return res, nil
}
