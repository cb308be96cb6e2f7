package llm_test

import (
	"encoding/json"
	"fmt"
	"strings"
)

// This file renders a model's reply as the bytes a given server puts on the
// wire. The forms are taken from the servers' sources and their users' bug
// reports; dialect is the set of quirks one server has.

// reply is what the scripted model decides at one step.
type reply struct {
	text, reasoning string
	calls           []wantCall
}

type wantCall struct{ name, args string }

// dialect is how one server streams a reply.
type dialect struct {
	crlf           bool   // lines end with \r\n (sse-starlette: llama-cpp-python)
	noIndex        bool   // tool-call fragments carry no index
	wholeArgs      bool   // each call's arguments in one fragment
	finish         string // finish_reason of a reply with calls ("tool_calls" by default)
	usage          string // "final" (choices: []), "with-finish", "every", "x_groq", "none"
	reasoningField string // "reasoning_content" or "reasoning"
	comment        string // an SSE comment sent before every chunk
	chunkExtra     map[string]any
	contentNull    bool // the role chunk has "content": null
	idEveryPiece   bool // every fragment repeats the call's ID (LM Studio)
	explicitNulls  bool // later fragments send "id": null, "type": null, "name": null
	argsObject     bool // arguments are a JSON object, not a string (MiniMax)
	dupFlush       bool // the final flush repeats the arguments (vLLM tool-parser bug)
	signature      bool // extra_content.google.thought_signature on each call (Gemini 3)
	azurePrelude   bool // a first chunk with no choices and prompt_filter_results
	textCalls      string
	// textCalls writes the calls in the content instead: "fenced" (```json
	// list), "bare" (a bare object per call in prose), "tags"
	// (<tool_call>…</tool_call>), "list" (a bare JSON list).
}

// signatureOf is the thought signature Gemini 3 attaches to call i of
// request n.
func signatureOf(n, i int) string { return fmt.Sprintf("sig-%d-%d-CiQBVKhc7v", n, i) }

// render returns the body of a streamed response to request n.
func (d dialect) render(r reply, n int) []byte {
	var b strings.Builder
	nl := "\n"
	if d.crlf {
		nl = "\r\n"
	}
	id := fmt.Sprintf("chatcmpl-%d", n)
	emit := func(v map[string]any) {
		if d.comment != "" {
			b.WriteString(d.comment + nl + nl)
		}
		v["id"], v["object"], v["created"], v["model"] = id, "chat.completion.chunk", 1700000000, "m"
		for k, x := range d.chunkExtra {
			v[k] = x
		}
		if d.usage == "every" {
			v["usage"] = map[string]any{"prompt_tokens": 100, "completion_tokens": 10 + b.Len()%7, "total_tokens": 110 + b.Len()%7}
		} else if _, ok := v["usage"]; !ok && d.usage != "none" {
			v["usage"] = nil
		}
		js, _ := json.Marshal(v)
		b.WriteString("data: " + string(js) + nl + nl)
	}
	choice := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": nil}}}
	}
	if d.azurePrelude {
		emit(map[string]any{"choices": []any{}, "prompt_filter_results": []any{map[string]any{"prompt_index": 0, "content_filter_results": map[string]any{}}}})
	}
	role := map[string]any{"role": "assistant", "content": ""}
	if d.contentNull {
		role["content"] = nil
	}
	emit(choice(role, nil))
	if r.reasoning != "" && d.reasoningField != "" {
		for _, piece := range pieces(r.reasoning, 9) {
			emit(choice(map[string]any{d.reasoningField: piece, "content": nil}, nil))
		}
	}
	text := r.text
	calls := r.calls
	if d.textCalls != "" {
		text = strings.TrimSpace(text + "\n" + d.writeCalls(calls))
		calls = nil
	}
	for _, piece := range pieces(text, 7) {
		emit(choice(map[string]any{"content": piece}, nil))
	}
	for i, c := range calls {
		callID := fmt.Sprintf("call_%d_%d", n, i)
		head := map[string]any{"id": callID, "type": "function", "function": map[string]any{"name": c.name, "arguments": ""}}
		if !d.noIndex {
			head["index"] = i
		}
		if d.signature {
			head["extra_content"] = map[string]any{"google": map[string]any{"thought_signature": signatureOf(n, i)}}
		}
		var frags []any
		switch {
		case d.argsObject:
			head["function"].(map[string]any)["arguments"] = json.RawMessage(c.args)
		case d.wholeArgs:
			head["function"].(map[string]any)["arguments"] = c.args
		default:
			for _, p := range pieces(c.args, 5) {
				frags = append(frags, p)
			}
		}
		emit(choice(map[string]any{"tool_calls": []any{head}}, nil))
		for _, p := range frags {
			f := map[string]any{"function": map[string]any{"arguments": p}}
			if !d.noIndex {
				f["index"] = i
			}
			if d.idEveryPiece {
				f["id"] = callID
			}
			if d.explicitNulls {
				f["id"], f["type"] = nil, nil
				f["function"].(map[string]any)["name"] = nil
			}
			emit(choice(map[string]any{"tool_calls": []any{f}}, nil))
		}
		if d.dupFlush {
			f := map[string]any{"index": i, "function": map[string]any{"arguments": c.args}}
			emit(choice(map[string]any{"tool_calls": []any{f}}, nil))
		}
	}
	finish := "stop"
	if len(calls) > 0 {
		finish = d.finish
		if finish == "" {
			finish = "tool_calls"
		}
	}
	usage := map[string]any{"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150}
	last := choice(map[string]any{}, finish)
	switch d.usage {
	case "with-finish":
		last["usage"] = usage
		emit(last)
	case "x_groq":
		last["x_groq"] = map[string]any{"id": "req_x", "usage": usage}
		emit(last)
	case "final", "":
		emit(last)
		emit(map[string]any{"choices": []any{}, "usage": usage})
	default:
		emit(last)
	}
	b.WriteString("data: [DONE]" + nl + nl)
	return []byte(b.String())
}

// writeCalls writes the calls as a small model does in its text.
func (d dialect) writeCalls(calls []wantCall) string {
	obj := func(c wantCall) string {
		return fmt.Sprintf(`{"name": %q, "arguments": %s}`, c.name, c.args)
	}
	var objs []string
	for _, c := range calls {
		objs = append(objs, obj(c))
	}
	switch d.textCalls {
	case "fenced":
		return "```json\n[" + strings.Join(objs, ",\n ") + "]\n```"
	case "tags":
		var b strings.Builder
		for _, o := range objs {
			b.WriteString("<tool_call>\n" + o + "\n</tool_call>\n")
		}
		return b.String()
	case "list":
		return "[" + strings.Join(objs, ", ") + "]"
	default: // bare objects in prose
		return "I will do this: " + strings.Join(objs, " then ") + "."
	}
}

// pieces splits s into parts of at most n bytes (ASCII test data).
func pieces(s string, n int) []string {
	var out []string
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}
