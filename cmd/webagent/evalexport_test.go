package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// The documented fields of the exports: Online-Mind2Web's result.json (as
// its evaluation reads it: task_id, task, final_result_response,
// action_history, thoughts) and WebVoyager's results (id, web_name, ques,
// web, answer, the evaluator's word).
const (
	om2wSchema = `{"type":"object","required":["task_id","task","final_result_response","action_history","thoughts"],"properties":{
  "task_id":{"type":"string","minLength":1},"task":{"type":"string","minLength":1},"final_result_response":{"type":"string"},
  "action_history":{"type":"array","items":{"type":"string"}},"thoughts":{"type":"array","items":{"type":"string"}}}}`
	wvSchema = `{"type":"object","required":["id","web_name","ques","web","answer","judge"],"properties":{
  "id":{"type":"string","minLength":1},"web_name":{"type":"string"},"ques":{"type":"string","minLength":1},"web":{"type":"string"},
  "answer":{"type":"string"},"judge":{"enum":["SUCCESS","NOT SUCCESS",""]}}}`
)

// checkJSON validates v's JSON against schema.
func checkJSON(t *testing.T, schema string, data []byte) map[string]any {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(schema), &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("not JSON: %v: %s", err, data)
	}
	if err := rs.Validate(v); err != nil {
		t.Errorf("%v: %s", err, data)
	}
	return v
}

// checkExports checks the exports eval wrote of TestEvalDatasetJudged's
// two Online-Mind2Web runs (t-easy judged a success, t-hard a failure),
// then writes one again with eval export.
func checkExports(t *testing.T, out string) {
	t.Helper()
	for id, judged := range map[string]string{"t-easy": "success", "t-hard": "failure"} {
		dir := filepath.Join(out, "online-mind2web", id)
		data, err := os.ReadFile(filepath.Join(dir, "result.json"))
		if err != nil {
			t.Fatal(err)
		}
		v := checkJSON(t, om2wSchema, data)
		if v["task_id"] != id || !strings.Contains(v["task"].(string), "contact form") || len(v["action_history"].([]any)) == 0 || v["webagent_judge"] != judged {
			t.Errorf("%s: %s", id, data)
		}
		shots, _ := filepath.Glob(filepath.Join(dir, "trajectory", "*"))
		if len(shots) == 0 || int(v["screenshots"].(float64)) != len(shots) {
			t.Errorf("%s: %d screenshots in trajectory/, result says %v", id, len(shots), v["screenshots"])
		}
	}
	sub, err := os.ReadFile(filepath.Join(out, "online-mind2web", "submission.jsonl"))
	if err != nil || len(strings.Split(strings.TrimSpace(string(sub)), "\n")) != 2 {
		t.Errorf("submission.jsonl: %v\n%s", err, sub)
	}
	wv, err := os.ReadFile(filepath.Join(out, "webvoyager-results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	words := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(wv)), "\n") {
		v := checkJSON(t, wvSchema, []byte(line))
		words[v["id"].(string)] = v["judge"].(string)
	}
	if words["t-easy"] != "SUCCESS" || words["t-hard"] != "NOT SUCCESS" {
		t.Errorf("webvoyager results: %v", words)
	}

	again := t.TempDir()
	if code, p := run(t, "eval", "export", "--format", "online-mind2web", "--out", again, out); code != exitOK {
		t.Fatalf("eval export: exit %d\n%s", code, p.stderr.String())
	}
	a, _ := os.ReadFile(filepath.Join(out, "online-mind2web", "t-easy", "result.json"))
	b, _ := os.ReadFile(filepath.Join(again, "online-mind2web", "t-easy", "result.json"))
	if len(a) == 0 || string(a) != string(b) {
		t.Errorf("eval export wrote another result.json:\n%s\n%s", a, b)
	}
	if code, p := run(t, "eval", "export", "--format", "mind2web", out); code != exitUsage || !strings.Contains(p.stderr.String(), "online-mind2web or webvoyager") {
		t.Errorf("an unknown format: exit %d, %s", code, p.stderr.String())
	}
}
