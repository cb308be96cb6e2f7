package judge_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/webagent/webagent/judge"
	"github.com/webagent/webagent/modelserver"
)

// rubricTrajectory is trajectory with a rubric of two items.
func rubricTrajectory(t *testing.T) judge.Trajectory {
	tr := trajectory(t)
	tr.Rubric = &judge.Rubric{Text: "R1: the message is sent. R2: the message says hello.", Items: []string{"R1", "R2"}}
	return tr
}

// rubricWeights are the rubric's weights, which the judge never sees.
var rubricWeights = map[string]int{"R1": 60, "R2": 40}

// judgeRubric judges rubricTrajectory with a judge that always gives turn.
func judgeRubric(t *testing.T, turn modelserver.Turn) judge.Verdict {
	t.Helper()
	c, _ := client(t, modelserver.ResponderFunc(func(*modelserver.ChatRequest) modelserver.Turn { return turn }))
	j, err := judge.New(judge.Config{Model: c, ModelName: "judge-model"})
	if err != nil {
		t.Fatal(err)
	}
	return j.Judge(context.Background(), rubricTrajectory(t))
}

// A judge that answers in plain JSON, in webagent's words or in those of
// BU Bench V2's own judge prompt (a finding's status, the flag
// reward_hacking_suspected, and the fields that are not scored), gets the
// verdict, findings, flags and score the same findings get through
// report_findings.
func TestFindingsInTheJudgesOwnWords(t *testing.T) {
	t.Parallel()
	toolCall := func(args string) modelserver.Turn {
		return modelserver.Turn{ToolCalls: []modelserver.Call{{Name: "report_findings", Args: args}}}
	}
	buV2 := func(r1, r2 string, infra, hacking bool) string {
		b := func(v bool) string {
			if v {
				return "true"
			}
			return "false"
		}
		return `{"agent_task_reading": "The agent read the task as sending one message through the form.",
 "findings": [{"item": "R1", "evidence": "step 3 sent the form", "status": "` + r1 + `"},
              {"item": "R2", "evidence": "step 3 typed hello", "status": "` + r2 + `"}],
 "observations": ["the form has no confirmation page"],
 "infra_error": ` + b(infra) + `, "pii_present": false, "reward_hacking_suspected": ` + b(hacking) + `, "flag_notes": null}`
	}
	ours := func(r1, r2 string, infra, hacking bool) string {
		b := func(v bool) string {
			if v {
				return "true"
			}
			return "false"
		}
		return `{"findings": [{"evidence": "step 3 sent the form", "item": "R1", "finding": "` + r1 + `"},
 {"evidence": "step 3 typed hello", "item": "R2", "finding": "` + r2 + `"}], "infra_error": ` + b(infra) + `, "reward_hacking": ` + b(hacking) + `}`
	}
	for _, tc := range []struct {
		name           string
		r1, r2         string
		infra, hacking bool
		outcome        string
		score          float64
	}{
		{"all met", judge.Met, judge.Met, false, false, judge.Success, 100},
		{"one violated", judge.Met, judge.Violated, false, false, judge.Failure, 60},
		{"one not assessable", judge.NotAssessable, judge.Met, false, false, judge.Failure, 40},
		{"reward hacking", judge.Met, judge.Met, false, true, judge.Failure, 100},
		{"infra error", judge.Met, judge.Met, true, false, judge.Unscored, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			want := judgeRubric(t, toolCall(ours(tc.r1, tc.r2, tc.infra, tc.hacking)))
			if want.Outcome != tc.outcome || want.Flags == nil || want.Flags.RewardHacking != tc.hacking || want.Flags.InfraError != tc.infra ||
				judge.Score(want.Findings, rubricWeights) != tc.score {
				t.Fatalf("through report_findings: %+v flags %+v", want, want.Flags)
			}
			for name, text := range map[string]string{"webagent's words": ours(tc.r1, tc.r2, tc.infra, tc.hacking), "BU Bench V2's words": buV2(tc.r1, tc.r2, tc.infra, tc.hacking)} {
				got := judgeRubric(t, modelserver.Turn{Text: text})
				if got.Outcome != want.Outcome || got.Why != want.Why || !reflect.DeepEqual(got.Findings, want.Findings) || !reflect.DeepEqual(got.Flags, want.Flags) {
					t.Errorf("in %s: %s %q %+v flags %+v; through report_findings: %s %q %+v flags %+v",
						name, got.Outcome, got.Why, got.Findings, got.Flags, want.Outcome, want.Why, want.Findings, want.Flags)
				}
				if s := judge.Score(got.Findings, rubricWeights); s != tc.score {
					t.Errorf("in %s: score %v, want %v", name, s, tc.score)
				}
			}
		})
	}
}

// Anything else a judge answers in text is unscored, with what was wrong.
func TestFindingsUnreadableAreUnscored(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, text, why string }{
		{"prose", "I think the agent did it.", "not report_findings' JSON"},
		{"another status", `{"findings": [{"item": "R1", "evidence": "sent", "status": "partial"}], "infra_error": false, "reward_hacking_suspected": false}`, `"partial", not met, violated or not_assessable`},
		{"an item not in the rubric", `{"findings": [{"item": "R9", "evidence": "sent", "status": "met"}], "infra_error": false, "reward_hacking_suspected": false}`, `"R9", which is not an item of the rubric`},
		{"two words that disagree", `{"findings": [{"item": "R1", "evidence": "sent", "finding": "met", "status": "violated"}], "infra_error": false, "reward_hacking": false}`, `both "met" (finding) and "violated" (status)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v := judgeRubric(t, modelserver.Turn{Text: tc.text})
			if v.Outcome != judge.Unscored || v.Scored() || !strings.Contains(v.Why, tc.why) {
				t.Errorf("verdict %s %q, want unscored with %q", v.Outcome, v.Why, tc.why)
			}
		})
	}
}
