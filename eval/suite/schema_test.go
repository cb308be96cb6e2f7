package suite

import (
	"strings"
	"testing"
)

// A task's schema: a YAML mapping or a JSON string reaches the agent task;
// an invalid one is reported with its line and field.
func TestTaskSchema(t *testing.T) {
	t.Parallel()
	src := "id: s\nsite: shop\ninstruction: Read.\nchecks: [{answer_contains: SO-}]\nschema:\n  type: object\n  properties: {order: {type: string}}\n  required: [order]\n"
	tasks, err := Parse("f.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := string(tasks[0].AgentTask("http://127.0.0.1:1").AnswerSchema)
	if got != `{"properties":{"order":{"type":"string"}},"required":["order"],"type":"object"}` {
		t.Errorf("schema %s", got)
	}
	tasks, err = Parse("f.yaml", []byte("id: s\nsite: shop\ninstruction: Read.\nchecks: [{answer_contains: x}]\nschema: '{\"type\": \"array\"}'\n"))
	if err != nil || string(tasks[0].Schema) != `{"type": "array"}` {
		t.Fatalf("%v %s", err, tasks[0].Schema)
	}
	_, err = Parse("f.yaml", []byte("id: s\nsite: shop\ninstruction: Read.\nchecks: [{answer_contains: x}]\nschema:\n  type: objekt\n"))
	if err == nil || !strings.Contains(err.Error(), "f.yaml:6") || !strings.Contains(err.Error(), "schema") || !strings.Contains(err.Error(), `"objekt"`) {
		t.Errorf("bad schema: %v", err)
	}
}
