package llm

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"

	"github.com/webagent/webagent/contract"
)

// Small local models often write their tool call as JSON in the text
// instead of as a tool call: a bare object, a fenced ```json block, a
// list, or Hermes/Qwen <tool_call> tags. callsFromText recognises them,
// but only for tools that were offered, so that prose quoting JSON is not
// taken for a call.

var (
	tagRe   = regexp.MustCompile(`(?s)<(tool_call|function_call|tool_calls)>\s*(.*?)\s*</(?:tool_call|function_call|tool_calls)>`)
	fenceRe = regexp.MustCompile("(?s)```[a-zA-Z_]*\\s*\\n?(.*?)```")
)

// maxTextScan bounds how many '{' or '[' positions are tried in prose.
const maxTextScan = 64

// callsFromText returns the calls written in text and the text without
// them. It returns no calls when none names an offered tool.
func callsFromText(text string, tools map[string]bool) ([]contract.ToolCall, string) {
	if len(tools) == 0 || !strings.ContainsAny(text, "{[") {
		return nil, text
	}
	var calls []contract.ToolCall
	rest := text
	// Tagged and fenced blocks first.
	for _, re := range []*regexp.Regexp{tagRe, fenceRe} {
		groups := 1
		if re == tagRe {
			groups = 2
		}
		rest = re.ReplaceAllStringFunc(rest, func(block string) string {
			inner := re.FindStringSubmatch(block)[groups]
			found := parseCalls([]byte(strings.TrimSpace(inner)), tools)
			if len(found) == 0 {
				return block
			}
			calls = append(calls, found...)
			return ""
		})
	}
	if len(calls) == 0 {
		// Bare JSON values in prose: try each opening brace in turn.
		var kept strings.Builder
		i, tries := 0, 0
		for i < len(rest) && tries < maxTextScan {
			j := strings.IndexAny(rest[i:], "{[")
			if j < 0 {
				break
			}
			start := i + j
			tries++
			dec := json.NewDecoder(strings.NewReader(rest[start:]))
			var v json.RawMessage
			if dec.Decode(&v) != nil {
				kept.WriteString(rest[i : start+1])
				i = start + 1
				continue
			}
			found := parseCalls(v, tools)
			end := start + int(dec.InputOffset())
			if len(found) == 0 {
				kept.WriteString(rest[i:end])
			} else {
				kept.WriteString(rest[i:start])
				calls = append(calls, found...)
			}
			i = end
		}
		kept.WriteString(rest[i:])
		rest = kept.String()
	}
	return calls, strings.TrimSpace(rest)
}

// parseCalls reads one JSON value as a call, a list of calls, or
// {"tool_calls": [...]}.
func parseCalls(b []byte, tools map[string]bool) []contract.ToolCall {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil
	}
	if b[0] == '[' {
		var list []json.RawMessage
		if json.Unmarshal(b, &list) != nil {
			return nil
		}
		var out []contract.ToolCall
		for _, item := range list {
			c, ok := parseCall(item, tools)
			if !ok {
				return nil // a list is all calls or none
			}
			out = append(out, c)
		}
		return out
	}
	var wrap struct {
		ToolCalls []json.RawMessage `json:"tool_calls"`
	}
	if json.Unmarshal(b, &wrap) == nil && len(wrap.ToolCalls) > 0 {
		list, _ := json.Marshal(wrap.ToolCalls)
		return parseCalls(list, tools)
	}
	if c, ok := parseCall(b, tools); ok {
		return []contract.ToolCall{c}
	}
	return nil
}

// parseCall reads {"name", "arguments"|"parameters"|"args"|"input"},
// {"tool": ...}, or the OpenAI shape {"function": {"name", "arguments"}}.
func parseCall(b []byte, tools map[string]bool) (contract.ToolCall, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return contract.ToolCall{}, false
	}
	if fn, ok := m["function"]; ok {
		var inner map[string]json.RawMessage
		if json.Unmarshal(fn, &inner) == nil {
			m = inner
		}
	}
	var name string
	for _, k := range []string{"name", "tool", "tool_name", "function"} {
		if json.Unmarshal(m[k], &name) == nil && name != "" {
			break
		}
	}
	if !tools[name] {
		return contract.ToolCall{}, false
	}
	args := "{}"
	for _, k := range []string{"arguments", "parameters", "args", "input"} {
		raw := bytes.TrimSpace(m[k])
		if len(raw) == 0 || isNull(raw) {
			continue
		}
		var s string
		if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
			args = s
		} else {
			var buf bytes.Buffer
			if json.Compact(&buf, raw) == nil {
				args = buf.String()
			}
		}
		break
	}
	return contract.ToolCall{Name: name, Arguments: args}, true
}

func toolNames(defs []contract.ToolDef) map[string]bool {
	m := make(map[string]bool, len(defs))
	for _, d := range defs {
		m[d.Name] = true
	}
	return m
}
