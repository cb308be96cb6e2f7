// Package export writes a finished eval's dataset runs in the formats the
// public benchmarks take, from report.json and the runs' traces:
//
//   - online-mind2web: the folder Online-Mind2Web's evaluation reads and its
//     leaderboard takes, one folder per task named by its task_id with
//     result.json (task_id, task, final_result_response, action_history,
//     thoughts, and the run's own fields) and trajectory/ (the screenshot
//     after each step, 0.png, 1.png, ...), plus one JSON line per task in
//     submission.jsonl;
//   - webvoyager: results.jsonl in WebVoyager's terms (task id, web_name,
//     ques, the answer, the judge's SUCCESS or NOT SUCCESS), one line per
//     task.
package export

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/webagent/webagent/eval/report"
	"github.com/webagent/webagent/judge"
)

// The formats Write knows.
const (
	OnlineMind2Web = "online-mind2web"
	WebVoyager     = "webvoyager"
)

// Formats are the formats Write knows.
func Formats() []string { return []string{OnlineMind2Web, WebVoyager} }

// ErrNoRuns: the report has no run of a dataset.
var ErrNoRuns = errors.New("the eval has no run of a dataset task to export (export writes --dataset runs)")

// OM2WResult is one task's result.json for Online-Mind2Web.
type OM2WResult struct {
	TaskID              string   `json:"task_id"`
	Task                string   `json:"task"`
	Website             string   `json:"website,omitempty"`
	FinalResultResponse string   `json:"final_result_response"`
	ActionHistory       []string `json:"action_history"`
	Thoughts            []string `json:"thoughts"`
	// The run's own fields, beside the format's.
	SelfReportCompleted bool   `json:"self_report_completed"`
	Code                string `json:"webagent_code"`
	Judge               string `json:"webagent_judge,omitempty"`
	Level               string `json:"level,omitempty"`
	Repeat              int    `json:"repeat,omitempty"`
	Screenshots         int    `json:"screenshots"`
}

// WVResult is one line of WebVoyager's results.
type WVResult struct {
	TaskID  string `json:"id"`
	WebName string `json:"web_name"`
	Ques    string `json:"ques"`
	Web     string `json:"web"`
	Answer  string `json:"answer"`
	// Judge is WebVoyager's evaluator's word: SUCCESS or NOT SUCCESS;
	// "" when the run is unscored.
	Judge      string `json:"judge"`
	Iterations int    `json:"iterations"`
	Code       string `json:"webagent_code"`
	Repeat     int    `json:"repeat,omitempty"`
}

// Write writes rep's dataset runs (reportDir holds report.json and the
// traces) in format under outDir, and returns the paths it wrote.
func Write(format, reportDir string, rep *report.Report, outDir string) ([]string, error) {
	if !slices.Contains(Formats(), format) {
		return nil, fmt.Errorf("unknown format %q: use %s", format, strings.Join(Formats(), " or "))
	}
	var runs []report.Run
	for _, r := range rep.Runs {
		if r.Kind == report.KindDataset {
			runs = append(runs, r)
		}
	}
	if len(runs) == 0 {
		return nil, ErrNoRuns
	}
	if format == WebVoyager {
		return writeWebVoyager(reportDir, runs, outDir)
	}
	return writeOM2W(reportDir, runs, outDir)
}

// trajectory reads a run's trace, when it has one.
func trajectory(reportDir string, r report.Run) (judge.Trajectory, bool) {
	if r.Trace == "" {
		return judge.Trajectory{}, false
	}
	tr, err := judge.FromTrace(filepath.Join(reportDir, filepath.FromSlash(r.Trace)))
	return tr, err == nil
}

func writeOM2W(reportDir string, runs []report.Run, outDir string) ([]string, error) {
	base := filepath.Join(outDir, OnlineMind2Web)
	if err := os.MkdirAll(base, 0o755); err != nil {
		return nil, err
	}
	var lines []OM2WResult
	for _, r := range runs {
		res := OM2WResult{TaskID: r.ID, Website: r.URL, FinalResultResponse: r.Answer, ActionHistory: []string{}, Thoughts: []string{},
			SelfReportCompleted: r.AgentCode == "SUCCESS" || (r.AgentCode == "" && r.Code == "SUCCESS"), Code: r.Code, Level: r.Level, Repeat: r.Repeat}
		if r.Judge != nil {
			res.Judge = r.Judge.Outcome
		}
		for _, s := range r.Steps {
			if s.Thought != "" {
				res.Thoughts = append(res.Thoughts, s.Thought)
			}
		}
		name := r.ID
		if r.Repeat > 1 {
			name = fmt.Sprintf("%s_%d", r.ID, r.Repeat)
		}
		dir := filepath.Join(base, safeName(name))
		if err := os.MkdirAll(filepath.Join(dir, "trajectory"), 0o755); err != nil {
			return nil, err
		}
		if tr, ok := trajectory(reportDir, r); ok {
			res.Task = tr.Task
			if res.FinalResultResponse == "" {
				res.FinalResultResponse = tr.Answer
			}
			for _, s := range tr.Steps {
				res.ActionHistory = append(res.ActionHistory, s.Actions...)
				if len(s.Screenshot) > 0 {
					ext := ".png"
					if strings.HasSuffix(strings.ToLower(s.ScreenshotFile), ".jpg") || strings.HasSuffix(strings.ToLower(s.ScreenshotFile), ".jpeg") {
						ext = ".jpg"
					}
					if err := os.WriteFile(filepath.Join(dir, "trajectory", fmt.Sprintf("%d%s", res.Screenshots, ext)), s.Screenshot, 0o644); err != nil {
						return nil, err
					}
					res.Screenshots++
				}
			}
		} else {
			for _, s := range r.Steps {
				res.ActionHistory = append(res.ActionHistory, s.Actions...)
			}
		}
		if err := writeJSON(filepath.Join(dir, "result.json"), res); err != nil {
			return nil, err
		}
		lines = append(lines, res)
	}
	sub := filepath.Join(base, "submission.jsonl")
	if err := writeLines(sub, lines); err != nil {
		return nil, err
	}
	return []string{base, sub}, nil
}

func writeWebVoyager(reportDir string, runs []report.Run, outDir string) ([]string, error) {
	var lines []WVResult
	for _, r := range runs {
		res := WVResult{TaskID: r.ID, WebName: r.Site, Web: r.URL, Answer: r.Answer, Iterations: r.Iterations, Code: r.Code, Repeat: r.Repeat}
		if tr, ok := trajectory(reportDir, r); ok {
			res.Ques = tr.Task
		}
		switch {
		case r.Judge == nil || !r.Judge.Scored():
		case r.Success:
			res.Judge = "SUCCESS"
		default:
			res.Judge = "NOT SUCCESS"
		}
		lines = append(lines, res)
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(outDir, "webvoyager-results.jsonl")
	return []string{path}, writeLines(path, lines)
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func writeLines[T any](path string, lines []T) error {
	var sb strings.Builder
	for _, l := range lines {
		b, err := json.Marshal(l)
		if err != nil {
			return err
		}
		sb.Write(b)
		sb.WriteByte('\n')
	}
	return os.WriteFile(path, []byte(sb.String()), 0o644)
}

// safeName keeps a task id usable as a folder name.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 || r == ':' {
			return '_'
		}
		return r
	}, s)
}
