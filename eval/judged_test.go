package eval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/eval/report"
	"github.com/webagent/webagent/judge"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/price"
	"github.com/webagent/webagent/testfixture/contactform"
	"github.com/webagent/webagent/trace"
)

// contactJudge succeeds the task that asks for "hello".
var contactJudge = contactform.Judge(`Task: Send the message "hello"`, false)

func scriptedClient(t *testing.T, r modelserver.Responder, name string) (*llm.Client, *modelserver.Server) {
	t.Helper()
	srv, err := modelserver.Start(r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	c, err := llm.New(llm.Config{BaseURL: srv.BaseURL(), Model: name, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c, srv
}

func writeDataset(t *testing.T, lines ...string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "tasks.jsonl")
	if err := os.WriteFile(f, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestDatasetJudged runs two WebVoyager-shaped tasks on a local site with
// a read-only browser, a scripted agent and a scripted judge: the site
// receives no write, each trace holds the blocked payload, the verdicts
// and their key points land in the report, and the cost is priced.
func TestDatasetJudged(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	site := contactform.Start(t)
	file := writeDataset(t,
		fmt.Sprintf(`{"web_name": "Contact", "id": "Contact--0", "ques": "Send the message \"hello\" through the contact form.", "web": %q, "human_label": true}`, site.URL+"/"),
		fmt.Sprintf(`{"web_name": "Contact", "id": "Contact--1", "ques": "Send the message \"goodbye\" through the contact form.", "web": %q}`, site.URL+"/"))
	tasks, err := LoadDataset("webvoyager", file)
	if err != nil {
		t.Fatal(err)
	}
	agentModel, _ := scriptedClient(t, contactform.Agent("hello", modelserver.Usage{PromptTokens: 1000, CompletionTokens: 100}), "gpt-4.1-mini")
	judgeModel, judgeSrv := scriptedClient(t, contactJudge, "o4-mini")
	o4, _ := price.Default().Lookup("o4-mini")
	j, err := judge.New(judge.Config{Model: judgeModel, ModelName: "o4-mini", Timeout: 30 * time.Second,
		Cost: func(u contract.Usage) (float64, bool) { return o4.Cost(u), true }})
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t)
	cfg.Workers, cfg.Model, cfg.ModelName = 1, agentModel, "gpt-4.1-mini"
	cfg.Judge, cfg.JudgeName, cfg.Prices = j, "o4-mini", price.Default()
	cfg.Browser = browser.Options{ReadOnly: true, RecordActivity: true}
	rep := NewRunner(cfg).Run(context.Background(), DatasetJobs(tasks))
	if err := rep.WriteAll(cfg.OutDir); err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 2 {
		t.Fatalf("runs: %+v", rep.Runs)
	}
	ok, bad := rep.Runs[0], rep.Runs[1]
	if !ok.Success || ok.Code != "SUCCESS" || ok.Judge == nil || ok.Judge.Outcome != judge.Success || len(ok.Judge.KeyPoints) != 2 ||
		ok.Site != "Contact" || ok.Blocked != 1 || ok.HumanLabel == nil || ok.URL != site.URL+"/" {
		t.Errorf("first run: %+v, judge %+v", ok, ok.Judge)
	}
	if bad.Success || bad.Code != report.CodeJudgedFailure || bad.AgentCode != "SUCCESS" || !strings.Contains(bad.Message, "was not sent") {
		t.Errorf("second run: %s %s %q", bad.Code, bad.AgentCode, bad.Message)
	}
	// Three replies of gpt-4.1-mini: 3 × (1000 × $0.40 + 100 × $1.60) / 1e6.
	if ok.CostUSD == nil || !nearly(*ok.CostUSD, 3*0.00056) || ok.Judge.CostUSD == nil || ok.Judge.Calls < 3 {
		t.Errorf("cost %v, judge %+v", ok.CostUSD, ok.Judge)
	}
	// Its input at gpt-4.1-mini's $0.40 and cached $0.10 a million: 3000
	// prompt tokens without a cache; those repeating the previous
	// request's start at the cached price; the provider cached none.
	prefix := min(ok.Tokens.PrefixTokens, 3000)
	if in := ok.Input; ok.Tokens.PromptTokens != 3000 || prefix == 0 || in == nil || !nearly(in.Uncached, 3000*0.40/1e6) ||
		!nearly(in.PrefixCached, (float64(3000-prefix)*0.40+float64(prefix)*0.10)/1e6) || !nearly(in.Billed, in.Uncached) {
		t.Errorf("input cost %+v of %+v", in, ok.Tokens)
	}
	if w := site.Writes(); len(w) != 0 {
		t.Errorf("the site received writes: %q", w)
	}
	tr, err := trace.Read(filepath.Join(cfg.OutDir, ok.Trace))
	if err != nil {
		t.Fatal(err)
	}
	var blocked []contract.BlockedRequest
	for _, s := range tr.Steps {
		blocked = append(blocked, s.Blocked...)
	}
	if len(blocked) != 1 || blocked[0].Method != "POST" || blocked[0].URL != site.URL+"/send" || blocked[0].Payload != "message=hello" {
		t.Errorf("blocked in the trace: %+v", blocked)
	}
	// The judge saw what would have been sent.
	var sawPayload bool
	for _, r := range judgeSrv.Requests() {
		sawPayload = sawPayload || strings.Contains(r.Req.LastUser(), "blocked by --read-only, never sent: POST "+site.URL+"/send would have sent: message=hello")
	}
	if !sawPayload {
		t.Error("no verdict request showed the blocked payload")
	}
	md, _ := os.ReadFile(filepath.Join(cfg.OutDir, "report.md"))
	for _, want := range []string{"Success rate **50%** (95% interval 9%–91%) over 2 scored runs.", "| Contact | 1 | 2 | 50% |",
		"- **Contact--0** (Contact): **success**: the form would have sent message=hello.", "accuracy **100%**"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}

	// eval judge DIR: the same runs judged again from their traces, by a
	// judge that now fails every one.
	again, _ := report.Load(filepath.Join(cfg.OutDir, "report.json"))
	failing, _ := scriptedClient(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		if strings.Contains(req.Messages[0].Content, "completed its task") {
			return modelserver.Turn{Text: "Thoughts: no.\nStatus: failure"}
		}
		return contactJudge.Respond(req)
	}), "judge-2")
	j2, _ := judge.New(judge.Config{Model: failing, ModelName: "judge-2"})
	again = JudgeReport(context.Background(), cfg.OutDir, again, j2, "judge-2", 2, nil)
	if again.Judge != "judge-2" || again.Runs[0].Success || again.Runs[0].Code != report.CodeJudgedFailure || again.Runs[0].Judge.Model != "judge-2" ||
		again.Runs[0].Blocked != 1 {
		t.Errorf("judged again: %+v", again.Runs[0])
	}
}

func nearly(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 }

// TestEvalBudget: with a budget below one run's cost, the first run ends
// over it and no other starts; the report says why and lists the rest.
func TestEvalBudget(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	site := contactform.Start(t)
	var lines []string
	for i := range 3 {
		lines = append(lines, fmt.Sprintf(`{"web_name": "Contact", "id": "Contact--%d", "ques": "Send \"hello\".", "web": %q}`, i, site.URL+"/"))
	}
	tasks, err := LoadDataset("webvoyager", writeDataset(t, lines...))
	if err != nil {
		t.Fatal(err)
	}
	agentModel, _ := scriptedClient(t, contactform.Agent("hello", modelserver.Usage{PromptTokens: 1000, CompletionTokens: 100}), "gpt-4.1-mini")
	cfg := testConfig(t)
	cfg.Workers, cfg.Model, cfg.ModelName, cfg.Prices, cfg.MaxCost = 1, agentModel, "gpt-4.1-mini", price.Default(), 0.001
	cfg.Browser = browser.Options{ReadOnly: true}
	rep := NewRunner(cfg).Run(context.Background(), DatasetJobs(tasks))
	if len(rep.Runs) != 1 || len(rep.NotRun) != 2 || !rep.Partial || !strings.Contains(rep.Stopped, "reached its budget of $0.0010") {
		t.Fatalf("runs %d, not run %v, stopped %q", len(rep.Runs), rep.NotRun, rep.Stopped)
	}
	if rep.Runs[0].Code != report.CodeUnscored || !strings.Contains(rep.Runs[0].Message, "no judge") {
		t.Errorf("a run without a judge: %s %q", rep.Runs[0].Code, rep.Runs[0].Message)
	}
}
