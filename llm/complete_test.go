package llm_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
)

func TestCompleteReassemblesInterleavedToolCalls(t *testing.T) {
	t.Parallel()
	srv := startServer(t, modelserver.Script(modelserver.Turn{
		Text: "I will fill the form.",
		ToolCalls: []modelserver.Call{
			modelserver.ToolCall("type", map[string]any{"ref": "e7", "text": "ada@example.com", "submit": true}),
			modelserver.ToolCall("click", map[string]string{"ref": "e12"}),
		},
		ChunkSize:  3,
		Interleave: true,
	}))
	c := newClient(t, srv, llm.Config{})
	req := contract.Request{
		Messages: []contract.Message{
			{Role: contract.RoleSystem, Content: "You drive a browser."},
			{Role: contract.RoleUser, Content: "sign in"},
			{Role: contract.RoleAssistant, ToolCalls: []contract.ToolCall{{ID: "call_a", Name: "click", Arguments: `{"ref":"e1"}`}}},
			{Role: contract.RoleTool, ToolCallID: "call_a", Content: "clicked link \"Sign in\""},
		},
		Tools: []contract.ToolDef{clickTool, {Name: "type", Description: "Type text", Parameters: []byte(`{"type":"object"}`)}},
	}
	reply, err := c.Complete(ctxWithTimeout(t, 5*time.Second), req)
	if err != nil {
		t.Fatal(err)
	}
	if reply.Content != "I will fill the form." {
		t.Errorf("Content = %q", reply.Content)
	}
	if len(reply.ToolCalls) != 2 {
		t.Fatalf("ToolCalls = %+v", reply.ToolCalls)
	}
	want := []contract.ToolCall{
		{Name: "type", Arguments: `{"ref":"e7","submit":true,"text":"ada@example.com"}`},
		{Name: "click", Arguments: `{"ref":"e12"}`},
	}
	for i, tc := range reply.ToolCalls {
		if tc.Name != want[i].Name || tc.Arguments != want[i].Arguments || tc.ID == "" {
			t.Errorf("call %d = %+v, want %+v with an ID", i, tc, want[i])
		}
	}
	if reply.ToolCalls[0].ID == reply.ToolCalls[1].ID {
		t.Errorf("both calls have ID %q", reply.ToolCalls[0].ID)
	}
	u := reply.Usage
	if u.PromptTokens == 0 || u.CompletionTokens == 0 || u.TotalTokens != u.PromptTokens+u.CompletionTokens {
		t.Errorf("Usage = %+v", u)
	}

	// What went over the wire.
	rec := srv.Requests()[0]
	got := rec.Req
	if got.Model != "test-model" || !got.Stream || !got.IncludeUsage {
		t.Errorf("model %q stream %v include_usage %v", got.Model, got.Stream, got.IncludeUsage)
	}
	if len(got.Messages) != 4 {
		t.Fatalf("messages = %+v", got.Messages)
	}
	for i, m := range req.Messages {
		g := got.Messages[i]
		if g.Role != string(m.Role) || g.Content != m.Content || g.ToolCallID != m.ToolCallID || len(g.ToolCalls) != len(m.ToolCalls) {
			t.Errorf("message %d sent as %+v, from %+v", i, g, m)
		}
	}
	if tc := got.Messages[2].ToolCalls[0]; tc != (modelserver.MessageCall{ID: "call_a", Name: "click", Arguments: `{"ref":"e1"}`}) {
		t.Errorf("assistant tool call sent as %+v", tc)
	}
	if len(got.Tools) != 2 || got.Tools[0].Name != "click" || got.Tools[0].Description != clickTool.Description ||
		string(got.Tools[0].Parameters) != string(clickTool.Parameters) {
		t.Errorf("tools sent as %+v", got.Tools)
	}
	if h := rec.Header.Get("Authorization"); h != "" {
		t.Errorf("keyless client sent Authorization %q", h)
	}
}

func TestCompleteSendsKey(t *testing.T) {
	t.Parallel()
	srv := startServer(t, modelserver.Script(modelserver.Turn{Text: "hello"}), modelserver.WithAPIKey("sk-abc"))
	c := newClient(t, srv, llm.Config{APIKey: "sk-abc"})
	reply, err := c.Complete(context.Background(), simpleRequest())
	if err != nil {
		t.Fatal(err)
	}
	if reply.Content != "hello" || len(reply.ToolCalls) != 0 {
		t.Errorf("reply = %+v", reply)
	}
}

func TestCompleteLongTextAndUnknownTool(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("ünïcödé text ", 50)
	srv := startServer(t, modelserver.Script(modelserver.Turn{
		Text:      long,
		ToolCalls: []modelserver.Call{{Name: "fly", Args: `{"ref": `}},
		ChunkSize: 5,
	}))
	c := newClient(t, srv, llm.Config{})
	reply, err := c.Complete(context.Background(), simpleRequest())
	if err != nil {
		t.Fatal(err)
	}
	if reply.Content != long {
		t.Errorf("text not kept whole: %q", reply.Content)
	}
	// Unknown tools and invalid arguments are the loop's business: passed on as is.
	if len(reply.ToolCalls) != 1 || reply.ToolCalls[0].Name != "fly" || reply.ToolCalls[0].Arguments != `{"ref": ` {
		t.Errorf("ToolCalls = %+v", reply.ToolCalls)
	}
}

func TestCompleteMalformedChunk(t *testing.T) {
	t.Parallel()
	srv := startServer(t, modelserver.Script(modelserver.Turn{Fault: modelserver.Malformed}))
	c := newClient(t, srv, llm.Config{})
	_, err := c.Complete(context.Background(), simpleRequest())
	if err == nil {
		t.Fatal("no error for a malformed chunk")
	}
	if !strings.Contains(err.Error(), "malformed stream chunk") || !strings.Contains(err.Error(), "{not json") {
		t.Errorf("error = %v", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("a started stream was retried: %d requests", n)
	}
}

func TestCompleteInvalidToolSchema(t *testing.T) {
	t.Parallel()
	srv := startServer(t, modelserver.Script())
	c := newClient(t, srv, llm.Config{})
	_, err := c.Complete(context.Background(), contract.Request{Tools: []contract.ToolDef{{Name: "bad", Parameters: []byte(`{`)}}})
	if err == nil || !strings.Contains(err.Error(), `tool "bad"`) {
		t.Errorf("err = %v", err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("sent %d requests", n)
	}
}

func TestCompleteCancelledBeforeStart(t *testing.T) {
	t.Parallel()
	srv := startServer(t, modelserver.Script(modelserver.Turn{Text: "x"}))
	c := newClient(t, srv, llm.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Complete(ctx, simpleRequest()); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("sent %d requests", n)
	}
}
