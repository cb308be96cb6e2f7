package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/webagent/webagent/eval"
	"github.com/webagent/webagent/fleet"
)

// evalFleetFlags are eval's flags for running its episodes on a fleet.
type evalFleetFlags struct {
	temporal    temporalFlags
	evalID      string
	workerModel bool
	settings    fleet.Settings
}

func (f *evalFleetFlags) register(fs *flag.FlagSet) {
	// No default from $TEMPORAL_ADDRESS: an eval runs on this machine
	// unless asked.
	fs.StringVar(&f.temporal.addr, "temporal", "", "run every episode as a workflow on the workers of this Temporal server, HOST:PORT (webagent worker); started again with the same arguments, the eval resumes")
	f.temporal.registerRest(fs)
	fs.StringVar(&f.evalID, "eval-id", "", "with --temporal: the eval's name, which its episodes' workflow ids are made from (default: made from the tasks, model and limits, so the same eval resumes)")
	fs.BoolVar(&f.workerModel, "worker-model", false, "with --temporal: measure the workers' own model (webagent worker --model) instead of the bundled reference model")
	fs.IntVar(&f.settings.Restarts, "restarts", 2, "with --temporal: times an episode starts again on another worker when its worker dies")
	fs.DurationVar(&f.settings.HeartbeatTimeout, "heartbeat-timeout", fleet.DefaultHeartbeatTimeout, "with --temporal: an episode silent this long counts its worker as gone")
}

// fleetEval runs the built-in tasks the flags select on the fleet and
// writes the same reports as a local eval.
func (o *evalOpts) fleetEval(ctx context.Context, fs *flag.FlagSet, files []string, log *slog.Logger, stdout, stderr io.Writer) (int, error) {
	switch {
	case len(files) > 0 || o.faults || o.miniwob != "":
		return exitUsage, usagef("--temporal runs the built-in suites; task files, --faults and --miniwob run on this machine")
	case len(o.cdpURLs) > 0:
		return exitUsage, usagef("--temporal and --cdp-url both say where browsers are; the workers have their own")
	case o.model != "" || o.baseURL != "" || o.local.on:
		return exitUsage, usagef("with --temporal the workers' model is measured, not one of this machine: start workers with --model and --base-url, and pass --worker-model")
	case flagSet(fs, "trace"):
		return exitUsage, usagef("with --temporal the traces would stay on the workers; leave --trace out")
	case o.cache.dir != "":
		return exitUsage, usagef("with --temporal the runs are on the workers, away from --cache's folder; leave --cache out")
	case o.fleet.settings.Restarts < 0:
		return exitUsage, usagef("--restarts is %d; give 0 or more", o.fleet.settings.Restarts)
	}
	tasks, err := loadTasks(nil)
	if err != nil {
		return exitUsage, err
	}
	if tasks, err = selectTasks(tasks, o.suites, o.tasks); err != nil {
		return exitUsage, err
	}
	limits := o.limitsFor(fs)
	episodes := make([]fleet.Episode, len(tasks))
	for i, t := range tasks {
		episodes[i] = fleet.Episode{Suite: t.Suite, ID: t.ID, WorkerModel: o.fleet.workerModel, Limits: limits, Fleet: o.fleet.settings}
	}
	c, err := o.fleet.temporal.dial(ctx, log)
	if err != nil {
		return startExit(ctx), err
	}
	defer c.Close()
	// The report's folder is made once the server answered: a usage
	// error leaves nothing behind.
	out, err := o.outDir()
	if err != nil {
		return exitUsage, err
	}
	id := o.fleet.evalID
	if id == "" {
		id = fleet.EvalID(episodes)
	}
	modelName := eval.ReferenceModel
	if o.fleet.workerModel {
		modelName = "workers' model"
	}
	bar := eval.NewBar(stderr, len(episodes), isTerminal(stderr))
	fmt.Fprintf(stderr, "eval %s: %d episodes on the workers of %s (queue %s), model %s, writing %s\n",
		id, len(episodes), o.fleet.temporal.addr, o.fleet.temporal.queue, modelName, out)
	fc := &fleet.Client{C: c, TaskQueue: o.fleet.temporal.queue}
	rep, resumed, err := fc.RunEval(ctx, fleet.EvalSpec{ID: id, Episodes: episodes, ModelName: modelName, Progress: bar})
	bar.Finish()
	if rep == nil {
		return exitFailed, err
	}
	if resumed.Finished+resumed.Running > 0 {
		fmt.Fprintf(stderr, "eval %s resumed: %d episodes had finished (not run again), %d were running (joined)\n", id, resumed.Finished, resumed.Running)
	}
	if r := fleet.Refusal(err); r != nil {
		fmt.Fprintf(stderr, "webagent: a worker refused episodes: %s\n", r.Error())
	}
	if ctx.Err() != nil {
		fmt.Fprintf(stderr, "the episodes started go on on the workers; the same command collects them\n")
	}
	return o.writeReport(ctx, rep, out, stdout, stderr)
}
