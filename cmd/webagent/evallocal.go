package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/webagent/webagent/localmodel"
)

// localStartTimeout bounds the start of the local model's server: loading
// a small model takes a second or two; a busy machine, more.
const localStartTimeout = 2 * time.Minute

// localModelFlag is eval's --local-model.
type localModelFlag struct{ on bool }

func (l *localModelFlag) register(fs *flag.FlagSet) {
	fs.BoolVar(&l.on, "local-model", false, "measure the open-weight model that "+localmodel.InstallCommand+
		" installed: eval starts llama.cpp's server with it on loopback, sets --base-url and --model to it, and ends it with the eval")
}

// startLocalModel starts the local model's server when --local-model asks
// for it and points the model flags at it, one slot per worker; the func
// it returns ends the server. Without the install it is a usage error
// naming the command that installs it.
func (o *evalOpts) startLocalModel(ctx context.Context, stderr io.Writer) (func(), error) {
	if !o.local.on {
		return func() {}, nil
	}
	switch {
	case o.baseURL != "" || o.model != "":
		return nil, usagef("--local-model chooses the model and its server; leave out --base-url and --model")
	case o.faults:
		return nil, usagef("--local-model measures a model; the fault suite's models are scripted: leave out one of them")
	case o.apis.api != "" && o.apis.api != apiChat:
		return nil, usagef("--local-model speaks OpenAI's chat completions; leave out --api %s", o.apis.api)
	}
	in, err := localmodel.Find("")
	if errors.Is(err, localmodel.ErrNotInstalled) {
		return nil, usagef("--local-model: %v", err)
	}
	if err != nil {
		return nil, err
	}
	sctx, cancel := context.WithTimeout(ctx, localStartTimeout)
	defer cancel()
	start := time.Now()
	srv, err := localmodel.Start(sctx, localmodel.Config{Install: in, Parallel: o.workers})
	if err != nil {
		return nil, fmt.Errorf("--local-model: %w", err)
	}
	fmt.Fprintf(stderr, "eval: llama-server with %s ready at %s in %.1fs\n", srv.Model, srv.BaseURL, time.Since(start).Seconds())
	o.baseURL, o.model = srv.BaseURL, srv.Model
	return srv.Close, nil
}
