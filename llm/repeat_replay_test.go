package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
)

// The stream llama-server sent for SmolLM2-135M-Instruct (the model
// ./setup.sh --local-model installs), asked with webagent's tools, at
// temperature 0, to act on the Lantern wiki's main page: one line
// written again and again until max_tokens (300; 0.6 tokens a second on
// this loaded machine, eight minutes). The server replays those bytes
// and holds back the stream's end until the client has gone.
func TestStreamThatRepeatsALineIsStopped(t *testing.T) {
	rec, err := os.ReadFile("testdata/smollm2-135m-repeats.sse")
	if err != nil {
		t.Fatal(err)
	}
	events := bytes.SplitAfter(rec, []byte("\n\n"))
	// The last three events: finish_reason "length", the usage, [DONE].
	body, end := events[:len(events)-4], events[len(events)-4:]
	gone := make(chan bool, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range body {
			_, _ = w.Write(ev)
			w.(http.Flusher).Flush()
		}
		select {
		case <-r.Context().Done():
			gone <- true
			return
		case <-time.After(10 * time.Second):
			gone <- false
		}
		for _, ev := range end {
			_, _ = w.Write(ev)
		}
	}))
	defer srv.Close()
	c, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "SmolLM2-135M-Instruct.Q4_1", ToolMode: llm.ToolModeNative})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	reply, err := c.Complete(ctx, contract.Request{
		Messages: []contract.Message{{Role: contract.RoleUser, Content: "What TCP port does Lantern listen on by default?"}},
		Tools:    []contract.ToolDef{{Name: "click", Description: "Click an element.", Parameters: []byte(`{"type":"object","properties":{"ref":{"type":"string"}}}`)}},
	})
	if err != nil {
		t.Fatalf("Complete after %s: %v", time.Since(start), err)
	}
	line := "Lantern is a small static-site server and builder. This wiki documents version 3.2.1."
	if n := strings.Count(reply.Content, line); n != 2 {
		// Once on its own, once as the start of the run that loops.
		t.Errorf("the line is in the reply %d times, want 2 (the run cut after its first):\n%s", n, reply.Content)
	}
	if !strings.HasSuffix(reply.Content, line) {
		t.Errorf("the reply does not end with the run's first line:\n%s", reply.Content)
	}
	if !<-gone {
		t.Error("the client read on to the end of the stream instead of closing it")
	}
}

// Another stream llama-server sent for SmolLM2-135M-Instruct, asked with
// webagent's own 30 tools to act on the wiki's main page (a reply of
// links, cut at max_tokens 256): llama-server reported 1,147 prompt tokens,
// fewer than the tools' JSON (17 KB) alone would take, because
// SmolLM2's chat template has no place for tools. The client says so,
// once (at level info, which --log-level info shows), and how to give the
// model its tools.
func TestServerThatDropsTheToolsIsNamed(t *testing.T) {
	rec, err := os.ReadFile("testdata/smollm2-135m-no-tools.sse")
	if err != nil {
		t.Fatal(err)
	}
	var req contract.Request
	for file, dst := range map[string]any{"testdata/webagent-tools.json": &req.Tools, "testdata/smollm2-135m-no-tools.request.json": &req.Messages} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, dst); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(rec)
	}))
	defer srv.Close()
	var logs bytes.Buffer
	c, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "SmolLM2-135M-Instruct.Q4_1",
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	for range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := c.Complete(ctx, req)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(logs.String(), "try --tool-mode prompt"); n != 1 {
		t.Errorf("%d warnings that the tools are dropped, want 1:\n%s", n, logs.String())
	}
}
