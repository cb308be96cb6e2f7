package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Structured answers: with Task.AnswerSchema (a JSON Schema), the done
// tool's answer is a JSON value that must match it. An answer that does
// not is refused with the validation error and the model tries again, at
// most MaxAnswerRetries times; the accepted value is Result.Object, and
// Result.Answer its JSON text. RunAs derives the schema from a Go type.
//
// The validator is github.com/google/jsonschema-go (draft 2020-12 and
// draft-07), the one the MCP Go SDK uses: it also infers schemas from Go
// types.

// MaxAnswerRetries is how many answers that break the schema the model may
// send before the task ends with AGENT_FAILED.
const MaxAnswerRetries = 3

// answerSchema is a task's compiled answer schema.
type answerSchema struct {
	raw      json.RawMessage
	resolved *jsonschema.Resolved
	str      bool // the schema's root type is string: a string answer is not decoded
}

// jsonTypes are JSON Schema's type names.
var jsonTypes = []string{"null", "boolean", "object", "array", "number", "string", "integer"}

// CheckAnswerSchema reports what is wrong with a JSON Schema for
// Task.AnswerSchema, or nil.
func CheckAnswerSchema(raw []byte) error {
	_, err := compileAnswerSchema(raw)
	return err
}

func compileAnswerSchema(raw []byte) (*answerSchema, error) {
	raw = bytes.TrimSpace(raw)
	var top any
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, fmt.Errorf("the answer schema is not JSON: %v", err)
	}
	if _, ok := top.(map[string]any); !ok {
		return nil, errors.New("the answer schema is not a JSON Schema: it must be an object such as {\"type\": \"object\", \"properties\": {…}}")
	}
	if err := checkTypes(top, "#"); err != nil {
		return nil, err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("the answer schema is not a valid JSON Schema: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("the answer schema is not a valid JSON Schema: %v", err)
	}
	return &answerSchema{raw: json.RawMessage(raw), resolved: rs, str: s.Type == "string"}, nil
}

// checkTypes finds a "type" that names no JSON type ("objekt"), which the
// validator would accept and then refuse every answer for.
func checkTypes(v any, at string) error {
	switch x := v.(type) {
	case map[string]any:
		for k, sub := range x {
			if k == "type" {
				names, ok := []any{sub}, true
				if list, isList := sub.([]any); isList {
					names = list
				}
				for _, n := range names {
					s, isStr := n.(string)
					if isStr && !slices.Contains(jsonTypes, s) {
						return fmt.Errorf("the answer schema is not valid: type %q at %s is not one of %s", s, at, strings.Join(jsonTypes, ", "))
					}
					ok = ok && isStr
				}
				if ok {
					continue
				}
			}
			if err := checkTypes(sub, at+"/"+k); err != nil {
				return err
			}
		}
	case []any:
		for i, sub := range x {
			if err := checkTypes(sub, fmt.Sprintf("%s/%d", at, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// doneTool is the done tool whose answer takes the schema.
func (s *answerSchema) doneTool() *tool {
	params, err := json.Marshal(map[string]any{
		"type":                 "object",
		"properties":           map[string]json.RawMessage{"answer": s.raw},
		"required":             []string{"answer"},
		"additionalProperties": false,
	})
	if err != nil {
		panic(err) // s.raw is valid JSON
	}
	return &tool{name: ToolDone, local: true, params: params,
		desc:   "Finish the task successfully. answer is the result as JSON that matches the schema of this parameter exactly (an object, not a string holding one).",
		decode: s.check,
		end: func(c call, out *iterOut) string {
			answer := string(c.raw)
			out.done = &answer
			return "task finished"
		}}
}

// useAnswerSchema offers s's done tool instead of the plain one.
func (ts *toolset) useAnswerSchema(s *answerSchema) {
	t := s.doneTool()
	ts.byName[ToolDone] = t
	for i := range ts.defs {
		if ts.defs[i].Name == ToolDone {
			ts.defs[i] = t.def()
		}
	}
}

// check validates a done call's arguments. It returns the answer's compact
// JSON, or an error for the model that says what is wrong.
func (s *answerSchema) check(arguments json.RawMessage) (json.RawMessage, error) {
	var args struct {
		Answer json.RawMessage `json:"answer"`
	}
	if err := json.Unmarshal(arguments, &args); err != nil || len(args.Answer) == 0 {
		return nil, errors.New("done needs the argument \"answer\": the result as JSON matching the schema")
	}
	var v any
	if err := json.Unmarshal(args.Answer, &v); err != nil {
		return nil, fmt.Errorf("the answer is not JSON: %v", err)
	}
	// Small models often send the object as a string holding its JSON.
	if str, ok := v.(string); ok && !s.str {
		var inner any
		if json.Unmarshal([]byte(str), &inner) == nil {
			v = inner
		}
	}
	if err := s.resolved.Validate(v); err != nil {
		return nil, fmt.Errorf("the answer does not match the schema: %s. Call done again with an answer that matches it", strings.TrimPrefix(err.Error(), "validating root: "))
	}
	return json.Marshal(v)
}

// RunAs runs the task with an answer schema derived from T (field names
// from the json tags, descriptions from the jsonschema tags; a field with
// omitempty is optional) and decodes the accepted answer into a T. The
// error is non-nil when the task did not succeed (res.Err) or the answer
// did not decode; res is never nil.
func RunAs[T any](ctx context.Context, a *Agent, task Task) (T, *Result, error) {
	var zero T
	s, err := jsonschema.For[T](nil)
	if err != nil {
		res := &Result{Status: StatusFailure, Code: CodeAgentFailed, Steps: []Step{}, Message: fmt.Sprintf("agent: no answer schema for %T: %v", zero, err)}
		res.Err = errors.New(res.Message)
		return zero, res, res.Err
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return zero, nil, fmt.Errorf("agent: the answer schema for %T: %w", zero, err)
	}
	task.AnswerSchema = raw
	res := a.Run(ctx, task)
	if res.Code != CodeSuccess {
		return zero, res, res.Err
	}
	var v T
	if err := json.Unmarshal(res.Object, &v); err != nil {
		return zero, res, fmt.Errorf("agent: decoding the answer into %T: %w", zero, err)
	}
	return v, res, nil
}
