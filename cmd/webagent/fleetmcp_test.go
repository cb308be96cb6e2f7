package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent/webagent/mcptask"
	"github.com/webagent/webagent/modelserver"
)

// testFleetMCP: with mcp --temporal, a run_task task is a workflow on the
// fleet. The server is killed while the task waits for its question's
// answer and started again: a new client finds the task by its id, answers
// it through tasks/update, and reads the result.
func testFleetMCP(t *testing.T, addr string) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<title>Mugs</title><h1>Mugs</h1><p>Red, blue and green mugs.</p>`)
	}))
	t.Cleanup(site.Close)
	model, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		call := func(name string, args any) modelserver.Turn {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall(name, args)}}
		}
		if tool := req.LastTool(); strings.Contains(tool, `"answered"`) {
			var a struct{ Answer string }
			_ = json.Unmarshal([]byte(tool), &a)
			return call("done", map[string]string{"answer": "colour: " + a.Answer})
		}
		return call("ask_human", map[string]string{"question": "Which colour should I pick?"})
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { model.Close() })
	queue := fmt.Sprintf("mcp-%d", time.Now().UnixNano())
	w := startLogged(t, "worker", "--temporal", addr, "--task-queue", queue, "--concurrency", "1",
		"--base-url", model.BaseURL(), "--model", "m", "--log-level", "info")
	until(t, "the worker starts", time.Minute, func() bool { return strings.Contains(w.text(), "worker started") }, w)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	serve := func() *logged {
		l := startLogged(t, "mcp", "--temporal", addr, "--task-queue", queue, "--port", port, "--allowed-domains", "127.0.0.1")
		until(t, "the MCP server listens", time.Minute, func() bool { return strings.Contains(l.text(), "MCP over streamable HTTP") })
		return l
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	connect := func() *mcp.ClientSession {
		c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{Capabilities: mcptask.Declare(nil)})
		if err := mcptask.Enable(c); err != nil {
			t.Fatal(err)
		}
		cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://127.0.0.1:" + port + "/mcp"}, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cs.Close() })
		return cs
	}

	first := serve()
	cs := connect()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_task", Arguments: map[string]any{"url": site.URL + "/", "task": "pick a mug, asking which colour"}})
	if err != nil {
		t.Fatal(err)
	}
	id, ok := mcptask.Started(res)
	if !ok {
		t.Fatalf("run_task did not answer with a task: %+v", res)
	}
	until(t, "the task asks its question", 2*time.Minute, func() bool {
		task, err := mcptask.Get(ctx, cs, id)
		return err == nil && task.Status == mcptask.InputRequired
	})
	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.exit(t, 10*time.Second)

	second := serve()
	cs = connect()
	var asked []string
	task, err := mcptask.Follow(ctx, cs, id, func(_ string, req mcp.InputRequest) (mcp.InputResponse, bool) {
		if p, ok := req.(*mcp.ElicitParams); ok {
			asked = append(asked, p.Message)
		}
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"answer": "blue"}}, true
	})
	if err != nil {
		t.Fatal(err)
	}
	var out struct{ Code, Answer string }
	if task.Result != nil {
		b, _ := json.Marshal(task.Result.StructuredContent)
		_ = json.Unmarshal(b, &out)
	}
	if task.Status != mcptask.Completed || out.Code != "SUCCESS" || out.Answer != "colour: blue" {
		t.Errorf("the task after the restart: %s %q, result %+v", task.Status, task.StatusMessage, out)
	}
	if len(asked) != 1 || !strings.Contains(asked[0], "Which colour should I pick?") {
		t.Errorf("the client was asked %q", asked)
	}
	if _, err := mcptask.Get(ctx, cs, "webagent-task-not-ours"); err == nil {
		t.Error("tasks/get reached a workflow this server did not start")
	}
	_ = cs.Close()
	_ = second.cmd.Process.Signal(syscall.SIGTERM)
	second.exit(t, 30*time.Second)
	stopWorker(t, w)
}
