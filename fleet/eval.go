package fleet

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/webagent/webagent/eval"
	"github.com/webagent/webagent/eval/report"
)

// EvalSpec is an eval whose episodes run on the fleet.
type EvalSpec struct {
	// ID names the eval; episodes' workflow ids are made from it, the task
	// and the attempt. "" derives it from the rest of the spec, so the
	// same eval started again resumes (EvalID).
	ID string
	// Episodes are the built-in tasks to run, in report order.
	Episodes []Episode
	// ModelName is reported: eval.ReferenceModel or the workers' model.
	ModelName string
	// Progress is told about episodes as they start and end; nil tells no
	// one.
	Progress eval.Progress
}

// EvalID is the id an eval of these episodes gets when it names none: the
// same episodes, model and limits give the same id, which is what lets an
// eval started again resume.
func EvalID(episodes []Episode) string {
	data, _ := json.Marshal(episodes)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:6])
}

var unsafeID = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// EpisodeWorkflowID is the workflow id of one episode of an eval.
func EpisodeWorkflowID(evalID string, e Episode, attempt int) string {
	return fmt.Sprintf("webagent-eval-%s-%s-%s-%d", evalID,
		unsafeID.ReplaceAllString(e.Suite, "_"), unsafeID.ReplaceAllString(e.ID, "_"), attempt)
}

// EvalResume counts what an eval found already done when it started.
type EvalResume struct {
	// Finished episodes were not run again; Running ones were joined.
	Finished, Running int
}

// RunEval runs the eval's episodes on the fleet, each as a workflow, and
// returns the report a local eval of them would give. Episodes that
// finished in an earlier start of the same eval are taken from Temporal,
// not run again; running ones are joined. When ctx ends, the report is
// partial: episodes already started go on on the workers and a later
// start of the eval collects them.
func (c *Client) RunEval(ctx context.Context, spec EvalSpec) (*report.Report, EvalResume, error) {
	if spec.ID == "" {
		spec.ID = EvalID(spec.Episodes)
	}
	rep := &report.Report{
		Version: report.Version, Started: time.Now(), Model: spec.ModelName,
		Planned: len(spec.Episodes), Runs: []report.Run{},
	}
	results := make([]*report.Run, len(spec.Episodes))
	var (
		resume EvalResume
		mu     sync.Mutex
		wg     sync.WaitGroup
		first  error
	)
	for i, e := range spec.Episodes {
		key := e.Suite + "/" + e.ID
		run, state, err := c.startEpisode(ctx, EpisodeWorkflowID(spec.ID, e, 1), e)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return nil, resume, err
		}
		switch state {
		case enums.WORKFLOW_EXECUTION_STATUS_COMPLETED:
			resume.Finished++
		case enums.WORKFLOW_EXECUTION_STATUS_RUNNING:
			resume.Running++
		}
		wg.Go(func() {
			var res EpisodeResult
			err := run.Get(ctx, &res)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil && ctx.Err() != nil:
				return
			case err != nil:
				res.Run = report.Run{Suite: e.Suite, ID: e.ID, Kind: "task", Code: report.CodeHarnessError,
					Message: "the episode's workflow failed: " + refusal(err), Steps: []report.Step{}}
				if first == nil && Refusal(err) != nil {
					first = err
				}
			}
			if spec.Progress != nil {
				spec.Progress.Begin(key)
				spec.Progress.Done(res.Run)
			}
			results[i] = &res.Run
		})
	}
	wg.Wait()
	for i, r := range results {
		if r == nil {
			e := spec.Episodes[i]
			rep.NotRun = append(rep.NotRun, e.Suite+"/"+e.ID)
			continue
		}
		rep.Runs = append(rep.Runs, *r)
	}
	rep.Partial = len(rep.NotRun) > 0 || ctx.Err() != nil
	rep.Finished = time.Now()
	rep.DurationMS = rep.Finished.Sub(rep.Started).Milliseconds()
	return rep, resume, first
}

// startEpisode starts the episode's workflow, or finds the one an earlier
// start of the eval made, and says which: COMPLETED (its result is kept),
// RUNNING (joined) or 0 (started now; also when an earlier one failed).
func (c *Client) startEpisode(ctx context.Context, id string, e Episode) (client.WorkflowRun, enums.WorkflowExecutionStatus, error) {
	desc, err := c.C.DescribeWorkflowExecution(ctx, id, "")
	var nf *serviceerror.NotFound
	switch {
	case errors.As(err, &nf):
	case err != nil:
		return nil, 0, fmt.Errorf("looking for episode %s: %w", id, err)
	default:
		switch st := desc.GetWorkflowExecutionInfo().GetStatus(); st {
		case enums.WORKFLOW_EXECUTION_STATUS_COMPLETED, enums.WORKFLOW_EXECUTION_STATUS_RUNNING:
			return c.C.GetWorkflow(ctx, id, ""), st, nil
		}
	}
	run, err := c.C.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: id, TaskQueue: c.queue(),
		WorkflowIDReusePolicy:    enums.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY,
		WorkflowIDConflictPolicy: enums.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, EpisodeWorkflowName, e)
	var dup *serviceerror.WorkflowExecutionAlreadyStarted
	switch {
	case errors.As(err, &dup):
		// It finished between the look and the start.
		return c.C.GetWorkflow(ctx, id, ""), enums.WORKFLOW_EXECUTION_STATUS_COMPLETED, nil
	case err != nil:
		return nil, 0, fmt.Errorf("starting episode %s: %w", id, err)
	}
	return run, 0, nil
}
