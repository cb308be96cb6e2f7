// Package report holds the results of an eval run and writes them as
// report.json (for machines), report.md (a summary to read or paste) and
// report.html (one self-contained page with charts, each task's steps and
// its final screenshot). Compare lists what changed between two runs.
package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/eval/suite"
	"github.com/webagent/webagent/judge"
)

// Version is the format version written in report.json.
const Version = 1

// Codes the harness adds to the agent's codes (agent.Code).
const (
	// CodeChecksFailed: the agent called done, but a check failed.
	CodeChecksFailed = "CHECKS_FAILED"
	// CodeHarnessError: the run could not be set up (site, model server,
	// browser launch).
	CodeHarnessError = "HARNESS_ERROR"
	// CodeJudgedFailure: the agent called done, but the judge found the
	// task not done.
	CodeJudgedFailure = "JUDGED_FAILURE"
	// CodeUnscored: a run without checks that has no verdict: no judge
	// was asked, or it failed or ran out of time. Counted apart, never in
	// a rate.
	CodeUnscored = "UNSCORED"
)

// KindDataset is the Kind of a run of a dataset's task, which a judge
// scores.
const KindDataset = "dataset"

// Report is one eval run.
type Report struct {
	Version  int       `json:"version"`
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
	// DurationMS is the wall time of the whole run.
	DurationMS int64 `json:"duration_ms"`
	// Model names the model measured ("reference" for the bundled one).
	Model   string `json:"model"`
	Workers int    `json:"workers"`
	// Planned is how many runs were to be made; Partial is set when the
	// run was interrupted and fewer were made.
	Planned int  `json:"planned"`
	Partial bool `json:"partial,omitempty"`
	// NotRun lists the keys of the planned runs that never started.
	NotRun []string `json:"not_run,omitempty"`
	// Stopped says why the eval stopped starting runs before the end (its
	// cost budget), when it did.
	Stopped string `json:"stopped,omitempty"`
	// Judge names the judge's model, when runs were judged.
	Judge string `json:"judge,omitempty"`
	Runs  []Run  `json:"runs"`
	// Summary is computed from the runs when the report is written: the
	// rates with their intervals, pass@k, the judge's agreement with
	// people, the cost. Readers need not trust it: Summarize recomputes it.
	Summary *Summary `json:"summary,omitempty"`
}

// Run is one task run.
type Run struct {
	ID    string `json:"id"`
	Suite string `json:"suite"`
	// Kind is "task" (a task file's task), "miniwob" or "fault".
	Kind string `json:"kind"`
	// Seed is the MiniWoB++ episode's seed.
	Seed *int64 `json:"seed,omitempty"`
	// Fault names the fault injected in a fault run.
	Fault string `json:"fault,omitempty"`

	Success bool `json:"success"`
	// Code is the agent's code (agent.Code), CHECKS_FAILED when the agent
	// finished but a check failed, or HARNESS_ERROR.
	Code string `json:"code"`
	// AgentCode is the code the agent ended with, AgentMessage its
	// message when a judge's verdict replaced it in Message.
	AgentCode    string `json:"agent_code,omitempty"`
	AgentMessage string `json:"agent_message,omitempty"`
	Message      string `json:"message,omitempty"`
	// Instruction is set when it is not in a task file (MiniWoB++).
	Instruction string `json:"instruction,omitempty"`
	Answer      string `json:"answer,omitempty"`
	Iterations  int    `json:"iterations"`
	DurationMS  int64  `json:"duration_ms"`
	// Attempts is 2 when the task was retried because its browser died.
	Attempts int                 `json:"attempts"`
	Checks   []suite.CheckResult `json:"checks"`
	Tokens   contract.Usage      `json:"tokens"`
	Steps    []Step              `json:"steps"`
	// Screenshot is the final screenshot's file, relative to the report.
	Screenshot string `json:"screenshot,omitempty"`
	// Trace is the folder of the run's trace (webagent show-trace),
	// relative to the report.
	Trace string `json:"trace,omitempty"`
	// Browser is the browser the run used: "local" or a CDP URL.
	Browser string `json:"browser,omitempty"`
	// Replay says how much of the run came from the run cache (eval
	// --cache); nil without one.
	Replay *agent.ReplaySummary `json:"replay,omitempty"`

	// Reward is a MiniWoB++ episode's raw reward, RewardReason its reason.
	Reward       *float64 `json:"reward,omitempty"`
	RewardReason string   `json:"reward_reason,omitempty"`

	// Fault runs: the bound the fault had to be caught within, and what
	// was seen (the code, or the recovery).
	BoundMS  int64  `json:"bound_ms,omitempty"`
	Expected string `json:"expected,omitempty"`
	Seen     string `json:"seen,omitempty"`

	// Dataset runs (Kind "dataset"): where the task started, the site and
	// level it counts under, a person's verdict from the dataset, and the
	// judge's verdict (key points, chosen steps, reasons), or why there
	// is none.
	URL        string         `json:"url,omitempty"`
	Site       string         `json:"site,omitempty"`
	Level      string         `json:"level,omitempty"`
	HumanLabel *bool          `json:"human_label,omitempty"`
	Judge      *judge.Verdict `json:"judge,omitempty"`
	// Blocked counts the requests --read-only stopped.
	Blocked int `json:"blocked,omitempty"`
	// Repeat is the try (1 to K) of a task run K times (--repeat).
	Repeat int `json:"repeat,omitempty"`
	// CostUSD is what the agent's model calls cost, in US dollars; nil
	// when the model has no price (the tokens say what it used).
	CostUSD *float64 `json:"cost_usd,omitempty"`
	// Input is what the agent's prompt tokens cost at its model's input
	// and cached input prices, without a cache, with each request's
	// prefix of the previous cached, and as billed; nil when the model has
	// no price.
	Input *InputCost `json:"input_cost,omitempty"`
	// Rubric is a rubric task's (BU Bench V2); Score its score, 0 to
	// 100, from the judge's findings (nil when unscored), and Zeroed why
	// it was set to 0 (a canary leaked, reward hacking suspected).
	Rubric *Rubric  `json:"rubric,omitempty"`
	Score  *float64 `json:"score,omitempty"`
	Zeroed string   `json:"zeroed,omitempty"`
}

// Rubric is what a rubric task is scored by: the text the judge reads,
// the weights code applies (the judge never sees them), and the canary
// that must not show in the agent's output.
type Rubric struct {
	Text    string         `json:"text"`
	Weights map[string]int `json:"weights"`
	Canary  string         `json:"canary,omitempty"`
}

// Items are the rubric's item ids, in the order its text names them.
func (r *Rubric) Items() []string {
	ids := make([]string, 0, len(r.Weights))
	for id := range r.Weights {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int {
		if c := cmp.Compare(strings.Index(r.Text, a), strings.Index(r.Text, b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return ids
}

// Scored reports whether the run counts in rates: a run with checks
// always does; a dataset run when its judge reached a verdict.
func (r *Run) Scored() bool {
	return r.Kind != KindDataset || r.Judge.Scored()
}

// TaskKey identifies the task of a run, the same for each of its
// repeats.
func (r *Run) TaskKey() string {
	c := *r
	c.Repeat = 0
	return c.Key()
}

// Spent is the run's known cost in US dollars, the judge's included, and
// whether any of it is unknown (a model without a price).
func (r *Run) Spent() (usd float64, unknown bool) {
	if r.CostUSD != nil {
		usd += *r.CostUSD
	} else if r.Tokens.TotalTokens > 0 {
		unknown = true
	}
	if r.Judge != nil {
		if r.Judge.CostUSD != nil {
			usd += *r.Judge.CostUSD
		} else if r.Judge.Usage.TotalTokens > 0 {
			unknown = true
		}
	}
	return usd, unknown
}

// Key identifies a run across reports: suite, id, seed, fault and try.
func (r *Run) Key() string {
	k := r.Suite + "/" + r.ID
	if r.Seed != nil {
		k += fmt.Sprintf("#%d", *r.Seed)
	}
	if r.Fault != "" {
		k += "!" + r.Fault
	}
	if r.Repeat > 0 {
		k += fmt.Sprintf("@%d", r.Repeat)
	}
	return k
}

// Step summarizes one iteration.
type Step struct {
	Iteration  int      `json:"iteration"`
	URL        string   `json:"url,omitempty"`
	Thought    string   `json:"thought,omitempty"`
	Reasoning  string   `json:"reasoning,omitempty"`
	Actions    []string `json:"actions"`
	Error      string   `json:"error,omitempty"`
	SnapshotMS int64    `json:"snapshot_ms"`
	LLMMS      int64    `json:"llm_ms"`
	ActionMS   int64    `json:"action_ms"`
	Tokens     int      `json:"tokens"`
	// Screenshot is the page after the step (in the run's trace),
	// relative to the report.
	Screenshot string `json:"screenshot,omitempty"`
}

// Steps summarizes the agent's steps.
func Steps(steps []agent.Step) []Step {
	out := make([]Step, 0, len(steps))
	for _, s := range steps {
		st := Step{
			Iteration: s.Iteration, URL: s.URL, Thought: clip(s.Thought, 300), Reasoning: clip(s.Reasoning, 1000), Error: s.Error,
			SnapshotMS: s.SnapshotMS, LLMMS: s.LLMMS, ActionMS: s.ActionMS, Tokens: s.Usage.TotalTokens,
			Actions: []string{},
		}
		for _, a := range s.Actions {
			line := a.Tool
			if len(a.Args) > 0 && string(a.Args) != "{}" {
				line += " " + clip(ReadableJSON(string(a.Args)), 200)
			}
			switch {
			case a.Skipped:
				line += " (skipped)"
			case a.Outcome != "":
				line += " → " + clip(a.Outcome, 300)
			}
			st.Actions = append(st.Actions, line)
		}
		out = append(out, st)
	}
	return out
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Sort orders the runs by suite, then id, seed and fault.
func (r *Report) Sort() {
	sort.SliceStable(r.Runs, func(i, j int) bool { return r.Runs[i].Key() < r.Runs[j].Key() })
}

// Passed counts the successful runs.
func (r *Report) Passed() int {
	n := 0
	for _, run := range r.Runs {
		if run.Success {
			n++
		}
	}
	return n
}

// Suites lists the suites in the report, sorted.
func (r *Report) Suites() []string {
	var s []string
	for _, run := range r.Runs {
		if !slices.Contains(s, run.Suite) {
			s = append(s, run.Suite)
		}
	}
	sort.Strings(s)
	return s
}

// WriteJSON writes the report as indented JSON to path, its Summary
// computed afresh.
func (r *Report) WriteJSON(path string) error {
	r.Summary = r.Summarize()
	data, err := marshalReadable(r)
	if err != nil {
		return err
	}
	return writeFile(path, data)
}

// Load reads a report.json.
func Load(path string) (*Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: not a report.json: %w", path, err)
	}
	if r.Runs == nil {
		return nil, fmt.Errorf("%s: not a report.json: it has no runs", path)
	}
	return &r, nil
}

// WriteAll writes report.json, report.md and report.html into dir. The
// HTML embeds the screenshots found in dir.
func (r *Report) WriteAll(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := r.WriteJSON(filepath.Join(dir, "report.json")); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, "report.md"), []byte(r.Markdown())); err != nil {
		return err
	}
	html, err := r.HTML(dir)
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, "report.html"), html)
}

// writeFile writes through a temporary file, so that a reader never sees
// half a report.
func writeFile(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
