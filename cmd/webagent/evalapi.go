package main

import (
	"context"
	"flag"
	"log/slog"
	"os"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/eval"
)

// eval's --api and --tools: the API the model is reached by and the tools
// it is offered, as run's. Without a model the reference model plays each
// task's solution over the API chosen, in the tools chosen: by ref with
// webagent's tools and Claude's browser use tool, at the refs' points on
// the screen with a computer tool (--tools native).
type evalAPIFlags struct {
	api, tools string
}

func (f *evalAPIFlags) register(fs *flag.FlagSet) {
	registerAPI(fs, &f.api)
	registerTools(fs, &f.tools)
}

// resolve is the API and the native tool kind ("" for webagent's tools),
// or a usage error: a tool set the API's vendor lacks.
func (f *evalAPIFlags) resolve(m *modelFlags, log *slog.Logger) (api, native string, err error) {
	api = chooseAPI(f.api, m.baseURL, log)
	native, err = nativeKind(f.tools, api)
	if err != nil {
		return "", "", err
	}
	return api, native, nil
}

// referencePlays reports whether no model is configured, so that the
// reference model plays (the fault suite aside).
func (o *evalOpts) referencePlays(log *slog.Logger) bool {
	cfg := o.modelFlags.config(log)
	return cfg.Model == "" && o.baseURL == "" && os.Getenv("OPENAI_BASE_URL") == ""
}

// apiModel is the model to measure over a vendor's API (--api anthropic
// or responses), or nil for chat completions and the reference model.
func (o *evalOpts) apiModel(ctx context.Context, api string, log *slog.Logger) (contract.Model, string, error) {
	if api == apiChat || o.faults || o.referencePlays(log) {
		return nil, "", nil
	}
	m, err := newModelAPI(ctx, api, &o.modelFlags, log)
	if err != nil {
		return nil, "", err
	}
	return m, o.modelFlags.config(log).Model, nil
}

// evalModel is the model eval measures (nil for the reference model), its
// name, the API and the native tool kind, and a func that lets go of it;
// on an error, code is the exit status.
func (o *evalOpts) evalModel(ctx context.Context, log *slog.Logger) (model contract.Model, name, api, native string, done func(), code int, err error) {
	done = func() {}
	api, native, err = o.apis.resolve(&o.modelFlags, log)
	if err != nil {
		return nil, "", "", "", done, exitUsage, err
	}
	model, name, err = o.apiModel(ctx, api, log)
	if err != nil {
		return nil, "", "", "", done, startExit(ctx), err
	}
	if model != nil {
		return model, name, api, native, done, 0, nil
	}
	client, err := o.measuredModel(ctx, log)
	if err != nil {
		return nil, "", "", "", done, startExit(ctx), err
	}
	if client == nil {
		return nil, eval.ReferenceModel, api, native, done, 0, nil
	}
	return client, client.Model(), api, native, client.CloseIdleConnections, 0, nil
}
