package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/contactform"
	"github.com/webagent/webagent/testfixture/tier"
)

// TestEvalRubric: a BU Bench V2 file of four rubric tasks on a local
// site, judged by a scripted findings judge: all met (100), a duplicate
// finding resolved worst-wins (60), a canary the agent typed (zeroed), and
// a judge that answers no findings (unscored): eval exits 1, the mean is
// withheld, the report gives each item's finding beside the score, and
// the judge never saw a weight.
func TestEvalRubric(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	site := contactform.Start(t)
	agentSrv := startModel(t, contactform.Agent("hello", formUsage))
	judgeSrv := startModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		user := req.LastUser()
		findings := func(list string) modelserver.Turn {
			return modelserver.Turn{ToolCalls: []modelserver.Call{{Name: "report_findings", Args: `{"findings":[` + list + `],"infra_error":false,"reward_hacking":false}`}}}
		}
		met := `{"evidence":"the form was sent","item":"R1","finding":"met"},{"evidence":"hello was typed","item":"R2","finding":"met"}`
		switch {
		case strings.Contains(user, "Task: Say hello A"), strings.Contains(user, "Task: Say hello D"):
			return findings(met)
		case strings.Contains(user, "Task: Say hello B"):
			return findings(met + `,{"evidence":"but the greeting was cut","item":"R2","finding":"violated"}`)
		}
		return modelserver.Turn{Text: "I could not decide."}
	}))
	task := func(id, letter, canary string) string {
		return fmt.Sprintf(`{"id": %q, "task": "Say hello %s through the contact form.", "website": %q, "rubric": "R1: the message is sent. R2: the message says hello.", "weights": {"R1": 60, "R2": 40}, "canary": %q}`,
			id, letter, site.URL+"/", canary)
	}
	lines := []string{task("a", "A", ""), task("b", "B", ""), task("c", "C", ""), task("d", "D", "hello")}
	file := filepath.Join(t.TempDir(), "bu_v2.jsonl")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	code, p := run(t, "eval", "--dataset", "bu-v2", "--read-only", "--workers", "2",
		"--base-url", agentSrv.BaseURL(), "--model", "gpt-4.1-mini",
		"--judge-base-url", judgeSrv.BaseURL(), "--judge-model", "o4-mini", "--out", out, file)
	if code != exitFailed {
		t.Fatalf("exit %d, want 1 (a task unscored); stderr:\n%s", code, p.stderr.String())
	}
	r := readReport(t, out)
	scores := map[string]string{}
	for _, run := range r.Runs {
		s := "unscored"
		if run.Score != nil {
			s = fmt.Sprintf("%.0f", *run.Score)
		}
		scores[run.ID] = s
	}
	if scores["a"] != "100" || scores["b"] != "60" || scores["c"] != "unscored" || scores["d"] != "0" {
		t.Errorf("scores %v", scores)
	}
	if r.Summary.MeanScore != nil || !strings.Contains(r.Summary.ScoreWithheld, "1 of 4 rubric tasks are unscored") {
		t.Errorf("mean %v, withheld %q", r.Summary.MeanScore, r.Summary.ScoreWithheld)
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	for _, want := range []string{"score **60** of 100", "R2 (weight 40): **violated**: but the greeting was cut", "zeroed: the task's canary string shows", "Mean rubric score withheld"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	for _, req := range judgeSrv.Requests() {
		for _, m := range req.Req.Messages {
			if strings.Contains(strings.ToLower(m.Content), "weight") {
				t.Errorf("the judge saw the weights: %s", m.Content)
			}
		}
	}
	p.noEvalChromeLeft(t)
}
