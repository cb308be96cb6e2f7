package agent

import (
	"context"
	"encoding/json"
	"strings"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/secret"
	"github.com/webagent/webagent/telemetry"
)

// OpenTelemetry spans (package telemetry exports them): the task
// (invoke_agent), each iteration, each model call (chat, with the GenAI
// semantic conventions' model, token and finish-reason attributes) and
// each tool call (execute_tool, with its outcome). The watchdog's verdicts
// are the spans' status. Page text, prompts and answers are attributes
// only with telemetry.Content, and pass through the run's masker first.
// Without an exporter the tracer is OpenTelemetry's no-op.

var tracer = otel.Tracer("github.com/webagent/webagent/agent")

// maxAttr bounds a text attribute.
const maxAttr = 4000

func clipAttr(s string) string {
	if len(s) > maxAttr {
		return s[:maxAttr] + "…"
	}
	return s
}

// startTask starts the task's span.
func startTask(ctx context.Context, task Task) (context.Context, trace.Span) {
	sec := secret.New(task.Secrets, task.URL)
	attrs := []attribute.KeyValue{
		attribute.String("gen_ai.operation.name", "invoke_agent"),
		attribute.String("gen_ai.agent.name", "webagent"),
		attribute.String("url.full", sec.Mask(task.URL)),
	}
	if telemetry.Content() {
		attrs = append(attrs, attribute.String("webagent.task", clipAttr(sec.Mask(task.Instruction))))
	}
	return tracer.Start(ctx, "invoke_agent webagent", trace.WithAttributes(attrs...))
}

// endTask ends it with the result.
func endTask(span trace.Span, res *Result, sec *secret.Set) {
	span.SetAttributes(attribute.String("webagent.code", string(res.Code)), attribute.Int("webagent.iterations", res.Iterations),
		attribute.Int("gen_ai.usage.input_tokens", res.Usage.PromptTokens), attribute.Int("gen_ai.usage.output_tokens", res.Usage.CompletionTokens))
	if telemetry.Content() && res.Answer != "" {
		span.SetAttributes(attribute.String("webagent.answer", clipAttr(sec.Mask(res.Answer))))
	}
	if res.Code != CodeSuccess {
		span.SetStatus(codes.Error, string(res.Code)+": "+sec.Mask(res.Message))
	}
	span.End()
}

// startModel starts a model call's span.
func (r *run) startModel(ctx context.Context, iter int) (context.Context, trace.Span) {
	name := ""
	if m, ok := r.a.model.(interface{ Model() string }); ok {
		name = m.Model()
	}
	return tracer.Start(ctx, strings.TrimSpace("chat "+name), trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(
		attribute.String("gen_ai.operation.name", "chat"), attribute.String("gen_ai.request.model", name), attribute.Int("webagent.iteration", iter)))
}

// endModel ends it with the reply.
func (r *run) endModel(span trace.Span, obs string, reply contract.Reply, err error) {
	reason := "stop"
	if len(reply.ToolCalls) > 0 {
		reason = "tool_calls"
	}
	span.SetAttributes(attribute.Int("gen_ai.usage.input_tokens", reply.Usage.PromptTokens), attribute.Int("gen_ai.usage.output_tokens", reply.Usage.CompletionTokens),
		attribute.StringSlice("gen_ai.response.finish_reasons", []string{reason}))
	if telemetry.Content() {
		span.SetAttributes(attribute.String("gen_ai.prompt", clipAttr(r.sec.Mask(obs))), attribute.String("gen_ai.completion", clipAttr(r.sec.Mask(reply.Content))))
	}
	if err != nil {
		span.SetStatus(codes.Error, r.sec.Mask(err.Error()))
	}
	span.End()
}

// startTool starts a tool call's span; a navigation's names its URL.
func (r *run) startTool(ctx context.Context, tc contract.ToolCall) (context.Context, trace.Span) {
	attrs := []attribute.KeyValue{attribute.String("gen_ai.operation.name", "execute_tool"), attribute.String("gen_ai.tool.name", tc.Name)}
	if tc.Name == contract.ActGoto {
		var a struct{ URL string }
		if json.Unmarshal([]byte(tc.Arguments), &a) == nil && a.URL != "" {
			attrs = append(attrs, attribute.String("url.full", r.sec.Mask(a.URL)))
		}
	}
	return tracer.Start(ctx, "execute_tool "+tc.Name, trace.WithAttributes(attrs...))
}

// endTool ends it with the outcome.
func (r *run) endTool(span trace.Span, o outcome, err error) {
	span.SetAttributes(attribute.Bool("webagent.failed", o.failed))
	if telemetry.Content() {
		span.SetAttributes(attribute.String("webagent.outcome", clipAttr(r.sec.Mask(o.text))))
	}
	switch {
	case err != nil:
		span.SetStatus(codes.Error, r.sec.Mask(err.Error()))
	case o.failed:
		span.SetStatus(codes.Error, "the tool call failed")
	}
	span.End()
}

// executeTraced is execute under the tool call's span.
func (r *run) executeTraced(ctx context.Context, tc contract.ToolCall, out *iterOut) (outcome, error) {
	res, err := r.traced(ctx, tc, out, out.rec.expect[tc.ID])
	if out.script != nil {
		res.calls = out.script.take() // a script's calls
	}
	return res, err
}

// traced is execute under the tool call's span, the call aiming at expect
// when set (a replayed call's element).
func (r *run) traced(ctx context.Context, tc contract.ToolCall, out *iterOut, expect *contract.Target) (outcome, error) {
	tctx, span := r.startTool(ctx, tc)
	res, err := r.execute(tctx, tc, out, expect)
	r.endTool(span, res, err)
	return res, err
}
