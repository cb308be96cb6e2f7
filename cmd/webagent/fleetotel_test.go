package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/otlpsink"
)

// testFleetOTel: a task submitted with --otel-endpoint and run by a worker
// with it: the worker's spans continue the submitter's trace (the context
// travels in Temporal's headers), the agent's task span under the submit
// span, read back from a real OTLP/HTTP receiver.
func testFleetOTel(t *testing.T, addr string) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<title>Hours</title><p>Open 9 to 5.</p>`)
	}))
	t.Cleanup(site.Close)
	model, err := modelserver.Start(modelserver.Script(modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]string{"answer": "9 to 5"})}}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { model.Close() })
	sink := otlpsink.Start(t)
	queue := fmt.Sprintf("otel-%d", time.Now().UnixNano())
	w := startLogged(t, "worker", "--temporal", addr, "--task-queue", queue, "--concurrency", "1",
		"--base-url", model.BaseURL(), "--model", "m", "--log-level", "info", "--otel-endpoint", sink.URL)
	until(t, "the worker starts", time.Minute, func() bool { return strings.Contains(w.text(), "worker started") }, w)
	code, p := run(t, "submit", "--temporal", addr, "--task-queue", queue, "--url", site.URL+"/", "--allow-private-network",
		"--otel-endpoint", sink.URL, "when is the shop open?")
	if code != exitOK {
		t.Fatalf("submit: exit %d\n%s", code, p.stderr.String())
	}
	var submit, task otlpsink.Span
	until(t, "the spans of both processes arrive", time.Minute, func() bool {
		for _, s := range sink.Spans() {
			switch {
			case s.Name == "submit webagent task" && s.Service == "webagent-submit":
				submit = s
			case s.Name == "invoke_agent webagent" && s.Service == "webagent-worker":
				task = s
			}
		}
		return submit.SpanID != "" && task.SpanID != ""
	})
	if task.TraceID != submit.TraceID || task.ParentID != submit.SpanID || task.Attrs["webagent.code"] != "SUCCESS" {
		t.Errorf("the worker's task span %+v does not continue the submit span %+v", task, submit)
	}
	stopWorker(t, w)
}

// stopWorker ends a worker as an operator does (SIGTERM) and waits for it,
// its browsers and their folders gone.
func stopWorker(t *testing.T, w *logged) {
	t.Helper()
	_ = w.cmd.Process.Signal(syscall.SIGTERM)
	if code := w.exit(t, 30*time.Second); code != exitOK {
		t.Errorf("worker exit %d", code)
	}
	if left := w.left(); len(left) > 0 {
		t.Errorf("a worker left behind %v", left)
	}
}
