package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/eval/report"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/contactform"
	"github.com/webagent/webagent/testfixture/tier"
	"github.com/webagent/webagent/trace"
)

// formUsage is what every reply of the form's agent reports.
var formUsage = modelserver.Usage{PromptTokens: 10_000, CompletionTokens: 500}

func startModel(t *testing.T, r modelserver.Responder) *modelserver.Server {
	t.Helper()
	srv, err := modelserver.Start(r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// mind2webFile writes an Online-Mind2Web set of two tasks on site: an
// easy one a person judged a success, and a hard one.
func mind2webFile(t *testing.T, site string) string {
	t.Helper()
	data := fmt.Sprintf(`[
  {"task_id": "t-easy", "confirmed_task": "Say hello through the contact form.", "website": %q, "reference_length": 3, "level": "easy", "human_label": "success"},
  {"task_id": "t-hard", "confirmed_task": "Ask for a refund through the contact form.", "website": %q, "reference_length": 5, "level": "hard", "human_label": "success"}
]`, site, site)
	f := filepath.Join(t.TempDir(), "Online_Mind2Web.json")
	if err := os.WriteFile(f, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestEvalDatasetJudged: an Online-Mind2Web file on a local site, the
// scripted agent, --read-only and a scripted judge: the site receives no
// write, each trace holds the blocked payload, the verdicts, the split by
// level, the agreement with the labels and the cost land in the report.
// Then eval judge with a judge that stalls leaves every run unscored
// within --judge-timeout.
func TestEvalDatasetJudged(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	site := contactform.Start(t)
	agentSrv := startModel(t, contactform.Agent("hello", formUsage))
	judgeSrv := startModel(t, contactform.Judge("Task: Say hello", false))
	out := t.TempDir()
	code, p := run(t, "eval", "--dataset", "online-mind2web", "--read-only", "--workers", "2",
		"--base-url", agentSrv.BaseURL(), "--model", "gpt-4.1-mini",
		"--judge-base-url", judgeSrv.BaseURL(), "--judge-model", "o4-mini",
		"--out", out, mind2webFile(t, site.URL+"/"))
	if code != exitFailed {
		t.Fatalf("exit %d, want 1 (one task judged a failure); stderr:\n%s", code, p.stderr.String())
	}
	if w := site.Writes(); len(w) != 0 {
		t.Errorf("the site received writes: %q", w)
	}
	r := readReport(t, out)
	if len(r.Runs) != 2 || r.Judge != "o4-mini" {
		t.Fatalf("runs %+v", r.Runs)
	}
	r.Sort()
	easy, hard := r.Runs[0], r.Runs[1]
	if !easy.Success || easy.Judge == nil || easy.Judge.Outcome != "success" || easy.Level != "easy" || easy.Blocked != 1 || easy.Site != "127.0.0.1" {
		t.Errorf("easy: %+v", easy)
	}
	if hard.Success || hard.Code != report.CodeJudgedFailure || hard.Judge.Reasons != "the reply asked for was not sent." {
		t.Errorf("hard: %s %+v", hard.Code, hard.Judge)
	}
	// Each run: three replies of 10,000 prompt and 500 completion tokens
	// of gpt-4.1-mini: 3 × (0.01 × $0.40 + 0.0005 × $1.60) = $0.0144.
	if easy.CostUSD == nil || *easy.CostUSD < 0.01439 || *easy.CostUSD > 0.01441 || easy.Judge.CostUSD == nil {
		t.Errorf("cost %v, judge %v", easy.CostUSD, easy.Judge.CostUSD)
	}
	s := r.Summary
	if s == nil || s.Rate.N != 2 || s.Rate.Passed != 1 || len(s.ByLevel) != 2 || s.Agreement == nil || s.Agreement.TP != 1 || s.Agreement.FN != 1 {
		t.Errorf("summary %+v", s)
	}
	for _, run := range []report.Run{easy, hard} {
		tr, err := trace.Read(filepath.Join(out, run.Trace))
		if err != nil {
			t.Fatal(err)
		}
		var payloads []string
		for _, st := range tr.Steps {
			for _, b := range st.Blocked {
				payloads = append(payloads, b.Method+" "+b.URL+" "+b.Payload)
			}
		}
		if len(payloads) != 1 || payloads[0] != "POST "+site.URL+"/send message=hello" {
			t.Errorf("%s: blocked in the trace: %q", run.ID, payloads)
		}
	}
	images := 0
	for _, req := range judgeSrv.Requests() {
		for _, m := range req.Req.Messages {
			images += m.Images
		}
	}
	if images == 0 {
		t.Error("the judge was shown no screenshot (--judge-vision is on by default)")
	}
	if !strings.Contains(p.stderr.String(), "Success rate 50% (95% interval") {
		t.Errorf("stderr lacks the rate:\n%s", p.stderr.String())
	}
	p.noEvalChromeLeft(t)
	checkExports(t, out)

	// eval judge: a judge that never gives its verdict. Both runs are
	// judged at once; each is unscored at the 2 s bound.
	stall := startModel(t, contactform.Judge("Task: Say hello", true))
	start := time.Now()
	code, p = run(t, "eval", "judge", "--judge-base-url", stall.BaseURL(), "--judge-model", "stalls", "--judge-timeout", "2s", "--judge-vision=false", out)
	took := time.Since(start)
	if code != exitFailed {
		t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
	}
	if took > 8*time.Second {
		t.Errorf("eval judge took %s with a 2s judge timeout", took)
	}
	again := readReport(t, out)
	for _, run := range again.Runs {
		if run.Code != report.CodeUnscored || run.Success || run.Judge == nil || !strings.Contains(run.Judge.Why, "within its timeout of 2s") || run.Judge.Model != "stalls" {
			t.Errorf("%s: %s %+v", run.ID, run.Code, run.Judge)
		}
	}
	if again.Summary.Unscored != 2 || again.Summary.Rate.N != 0 || again.Judge != "stalls" {
		t.Errorf("summary %+v", again.Summary)
	}
	for _, req := range stall.Requests() {
		for _, m := range req.Req.Messages {
			if m.Images > 0 {
				t.Fatal("--judge-vision=false sent an image")
			}
		}
	}
}

// TestEvalCostLimits: --max-cost ends a task whose cost passes it with
// COST_LIMIT; --max-eval-cost stops starting tasks once the eval's cost
// reaches it and says so. The model's price comes from --prices.
func TestEvalCostLimits(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	site := contactform.Start(t)
	agentSrv := startModel(t, contactform.Agent("hello", formUsage))
	dir := t.TempDir()
	prices := filepath.Join(dir, "prices.yaml")
	// 10,000 prompt tokens at $10 and 500 completion tokens at $20 per
	// million: $0.11 a reply.
	if err := os.WriteFile(prices, []byte("prices:\n  - {model: scripted-pro, input: 10, output: 20, date: 2026-11-01, source: test}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for i := range 3 {
		lines = append(lines, fmt.Sprintf(`{"web_name": "Contact", "id": "Contact--%d", "ques": "Say hello.", "web": %q}`, i, site.URL+"/"))
	}
	set := filepath.Join(dir, "tasks.jsonl")
	if err := os.WriteFile(set, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	model := []string{"--base-url", agentSrv.BaseURL(), "--model", "scripted-pro", "--prices", prices, "--read-only", "--workers", "1"}

	out := t.TempDir()
	code, p := run(t, append(append([]string{"eval", "--dataset", "webvoyager", "--sample", "1", "--max-cost", "0.15", "--out", out}, model...), set)...)
	if code != exitFailed {
		t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
	}
	r := readReport(t, out)
	if len(r.Runs) != 1 || r.Runs[0].AgentCode != "COST_LIMIT" || r.Runs[0].Iterations != 2 || !strings.Contains(r.Runs[0].Message, "$0.2200") {
		t.Fatalf("runs %+v", r.Runs)
	}

	out = t.TempDir()
	code, p = run(t, append(append([]string{"eval", "--dataset", "webvoyager", "--max-eval-cost", "0.20", "--out", out}, model...), set)...)
	if code != exitFailed {
		t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
	}
	r = readReport(t, out)
	if len(r.Runs) != 1 || len(r.NotRun) != 2 || !strings.Contains(r.Stopped, "reached its budget of $0.2000") ||
		!strings.Contains(p.stderr.String(), "stopped early") {
		t.Fatalf("runs %d, not run %v, stopped %q; stderr:\n%s", len(r.Runs), r.NotRun, r.Stopped, p.stderr.String())
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	if !strings.Contains(string(md), "**Stopped early**") || !strings.Contains(string(md), "Cost: **$0.3300**") {
		t.Errorf("report.md:\n%s", md)
	}
}

// TestEvalOpenWebUsageErrors: bad input is exit 2 with what is wrong and
// where, and nothing runs: no model request, no report.
func TestEvalOpenWebUsageErrors(t *testing.T) {
	t.Parallel()
	reports, _ := filepath.Glob("eval-out/*") // other tests' (an eval without --out writes there)
	agentSrv := startModel(t, modelserver.Script())
	dir := t.TempDir()
	write := func(name, data string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	good := write("good.jsonl", `{"web_name": "A", "id": "A--0", "ques": "q", "web": "http://127.0.0.1:9/"}`+"\n")
	malformed := write("bad.jsonl", `{"web_name": "A", "id": "A--0", "ques": "q", "web": "http://127.0.0.1:9/"}`+"\n"+`{"web_name": "A", "id": "A--1", "ques": "q"`+"\n")
	typo := write("prices.yaml", "prices:\n  - model: mine\n    input: 1\n    ouput: 2\n")
	model := []string{"--base-url", agentSrv.BaseURL(), "--model", "mine"}
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"unknown dataset", []string{"eval", "--dataset", "webvoyagr", good}, []string{`--dataset "webvoyagr"`, `did you mean "webvoyager"`}},
		{"malformed line", append([]string{"eval", "--dataset", "webvoyager", malformed}, model...), []string{"bad.jsonl:2", "not a JSON object"}},
		{"wrong format", append([]string{"eval", "--dataset", "online-mind2web", good}, model...), []string{"good.jsonl:1", `needs "task_id"`}},
		{"price typo", append([]string{"eval", "--prices", typo, "--dataset", "webvoyager", good}, model...), []string{"prices.yaml:4", `unknown field "ouput"`, `did you mean "output"`}},
		{"two files", append([]string{"eval", "--dataset", "webvoyager", good, good}, model...), []string{"reads one file"}},
		{"site without dataset", []string{"eval", "--site", "A"}, []string{"--site chooses among a dataset's tasks"}},
		{"unknown site", append([]string{"eval", "--dataset", "webvoyager", "--site", "B", good}, model...), []string{`site "B"`, "the sites are A"}},
		{"level of webvoyager", append([]string{"eval", "--dataset", "webvoyager", "--level", "easy", good}, model...), []string{"no level"}},
		{"no model", []string{"eval", "--dataset", "webvoyager", good}, []string{"--dataset needs a model"}},
		{"max cost without price", append([]string{"eval", "--dataset", "webvoyager", "--max-cost", "1", good}, model...), []string{`--max-cost needs a price for the model "mine"`, "--prices"}},
		{"judge without model", []string{"eval", "--judge-base-url", agentSrv.BaseURL(), "--dataset", "webvoyager", good}, []string{"need --judge-model"}},
		{"judge without traces", append([]string{"eval", "--judge-model", "j", "--trace=false", "--dataset", "webvoyager", good}, model...), []string{"leave out --trace=false"}},
		{"repeat zero", []string{"eval", "--repeat", "0"}, []string{"--repeat is 0"}},
		{"read-only on temporal", []string{"eval", "--temporal", "127.0.0.1:1", "--read-only"}, []string{"leave out --temporal"}},
		{"judge dir without model", []string{"eval", "judge", dir}, []string{"needs --judge-model"}},
		{"judge dir without report", []string{"eval", "judge", "--judge-model", "j", dir}, []string{"report.json"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, p := run(t, c.args...)
			if code != exitUsage {
				t.Fatalf("exit %d, want 2; stderr:\n%s", code, p.stderr.String())
			}
			for _, w := range c.want {
				if !strings.Contains(p.stderr.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, p.stderr.String())
				}
			}
		})
	}
	if n := len(agentSrv.Requests()); n != 0 {
		t.Errorf("the model received %d requests", n)
	}
	if after, _ := filepath.Glob("eval-out/*"); len(after) > len(reports) {
		t.Errorf("a report folder was made: %v (before: %v)", after, reports)
	}
}

// TestRunReadOnly: run --read-only posts nothing; the trace holds the
// blocked request with its payload, the secret typed into the form
// masked.
func TestRunReadOnly(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	site := contactform.Start(t)
	const secret = "s3cret-pass-phrase"
	agentSrv := startModel(t, contactform.Agent("<secret>pw</secret>", formUsage))
	dir := filepath.Join(t.TempDir(), "trace")
	code, p := run(t, "run", "--read-only", "--trace", dir, "--url", site.URL+"/", "--secret", "pw="+secret,
		"--base-url", agentSrv.BaseURL(), "--model", "m", "--json", "send the message <secret>pw</secret>")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
	}
	if w := site.Writes(); len(w) != 0 {
		t.Errorf("the site received writes: %q", w)
	}
	raw, err := os.ReadFile(filepath.Join(dir, trace.EventsFile))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), secret) || strings.Contains(p.stdout.String(), secret) || strings.Contains(p.stderr.String(), secret) {
		t.Error("the secret leaked into the trace or the output")
	}
	tr, err := trace.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	var blocked []contract.BlockedRequest
	var toldModel bool
	for _, s := range tr.Steps {
		blocked = append(blocked, s.Blocked...)
		for _, a := range s.Step.Actions {
			toldModel = toldModel || (a.Error && strings.HasPrefix(a.Outcome, "error: blocked by --read-only: POST "+site.URL+"/send would have sent: message=%3Csecret%3Epw%3C%2Fsecret%3E") ||
				a.Error && strings.Contains(a.Outcome, "blocked by --read-only: POST "+site.URL+"/send"))
		}
	}
	if len(blocked) != 1 || blocked[0].Method != "POST" || blocked[0].URL != site.URL+"/send" || !strings.Contains(blocked[0].Payload, "secret") {
		t.Errorf("blocked: %+v", blocked)
	}
	if !toldModel {
		t.Errorf("no action was told it was blocked: %+v", tr.Steps)
	}
	var res struct{ Code string }
	if err := json.Unmarshal(p.stdout.Bytes(), &res); err != nil || res.Code != "SUCCESS" {
		t.Errorf("result %s: %v", p.stdout.String(), err)
	}
}
