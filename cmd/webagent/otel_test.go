package main

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/testfixture/contactform"
	"github.com/webagent/webagent/testfixture/otlpsink"
	"github.com/webagent/webagent/testfixture/tier"
)

// TestRunOpenTelemetry: a run with --otel-endpoint sends its spans to a
// real OTLP/HTTP receiver: the task (invoke_agent) with the iterations
// under it, and under each the model call (chat, with the GenAI model and
// token attributes) and the tool calls (execute_tool); with --otel-content
// the prompts are there, masked, and the secret is in no attribute. The
// same run with the receiver gone finishes as fast (within a second).
func TestRunOpenTelemetry(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	const secret = "pw-OTEL-4471-not-in-spans"
	site := contactform.Start(t)
	model := startModel(t, contactform.Agent("<secret>pw</secret>", formUsage))
	sink := otlpsink.Start(t)
	args := func(endpoint string) []string {
		return []string{"run", "--url", site.URL + "/", "--base-url", model.BaseURL(), "--model", "gpt-4.1-mini",
			"--allowed-domains", "127.0.0.1", "--secret", "pw=" + secret, "--read-only",
			"--otel-endpoint", endpoint, "--otel-content", "send <secret>pw</secret> through the contact form"}
	}
	start := time.Now()
	code, p := run(t, args(sink.URL)...)
	took := time.Since(start)
	if code != exitOK {
		t.Fatalf("run: exit %d\n%s", code, p.stderr.String())
	}
	spans := sink.Spans()
	byID := map[string]otlpsink.Span{}
	var root otlpsink.Span
	for _, s := range spans {
		byID[s.SpanID] = s
		if s.Name == "invoke_agent webagent" {
			root = s
		}
		for k, v := range s.Attrs {
			if strings.Contains(v, secret) {
				t.Errorf("span %s attribute %s holds the secret", s.Name, k)
			}
		}
	}
	if root.SpanID == "" || root.Service != "webagent-run" || root.Attrs["webagent.code"] != "SUCCESS" || root.ParentID != "" {
		t.Fatalf("no task span, or not as run made it: %+v (of %d spans)", root, len(spans))
	}
	parentName := func(s otlpsink.Span) string { return byID[s.ParentID].Name }
	var chats, tools, iterations int
	for _, s := range spans {
		if s.TraceID != root.TraceID {
			t.Errorf("span %s is in another trace", s.Name)
		}
		switch {
		case s.Name == "iteration":
			iterations++
			if s.ParentID != root.SpanID {
				t.Errorf("iteration under %q", parentName(s))
			}
		case strings.HasPrefix(s.Name, "chat "):
			chats++
			if parentName(s) != "iteration" || s.Attrs["gen_ai.request.model"] != "gpt-4.1-mini" || s.Attrs["gen_ai.usage.input_tokens"] != "10000" ||
				s.Attrs["gen_ai.response.finish_reasons"] != "tool_calls" || !strings.Contains(s.Attrs["gen_ai.prompt"], "Snapshot") {
				t.Errorf("chat span: under %q, %v", parentName(s), s.Attrs)
			}
		case strings.HasPrefix(s.Name, "execute_tool "):
			tools++
			if parentName(s) != "iteration" || s.Attrs["gen_ai.tool.name"] == "" {
				t.Errorf("tool span: under %q, %v", parentName(s), s.Attrs)
			}
		}
	}
	if iterations != 3 || chats != 3 || tools != 3 {
		t.Errorf("%d iterations, %d chats, %d tool calls; want 3 each", iterations, chats, tools)
	}

	// The receiver gone: the run still succeeds, and its telemetry costs
	// it at most the exporter's shutdown bound (2 s), not a hang. (Two
	// runs' times are compared, so the machine's load is allowed for.)
	sink.Close()
	start = time.Now()
	if code, p := run(t, args(sink.URL)...); code != exitOK {
		t.Fatalf("run with the receiver gone: exit %d\n%s", code, p.stderr.String())
	}
	if down := time.Since(start); down > took+2*time.Second+boundSlack {
		t.Errorf("with the receiver gone the run took %s, with it %s; want at most 2s (the shutdown bound) more", down, took)
	}
}
