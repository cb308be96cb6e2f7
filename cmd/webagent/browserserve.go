package main

import (
	"context"
	"errors"
	"io"
	"maps"

	"github.com/webagent/webagent/secret"
	"github.com/webagent/webagent/session"
)

// serveSession is the session's own process: it serves until closed,
// idle or signalled.
func serveSession(ctx context.Context, o *browserOpts, stderr io.Writer) (int, error) {
	ready := session.ServeStarted()
	fail := func(err error) (int, error) {
		ready(err)
		return exitUsage, err
	}
	if err := o.validate(); err != nil {
		return fail(err)
	}
	secrets, _ := o.secrets.resolve()
	hidden := o.browser.hidden()
	maps.Copy(hidden, secrets) // the inbox's password too
	if err := o.inbox.load(secrets); err != nil {
		return fail(err)
	}
	for k := range secrets {
		if _, origin, _ := secret.ParseKey(k); origin == "" {
			return fail(usagef("--secret %s has no site: bind it to the one site it may be typed on, e.g. --secret %s@https://login.example.com=VALUE", k, k))
		}
	}
	o.inbox.log = secret.NewMasker(hidden)
	stderr = o.inbox.log.Writer(stderr)
	log := o.logger(stderr)
	if stop, err := o.otel.start(ctx, "webagent-browser", log); err == nil {
		defer stop()
	}
	bopts := o.browserOptions(log)
	o.common.session.apply(&bopts)
	if o.autoConnect {
		bopts.UserDataDir = "" // the running browser's, found by validate
	}
	err := session.Serve(ctx, session.Config{
		Name:             o.name,
		Browser:          bopts,
		Policy:           o.nav.policy,
		Secrets:          secrets,
		Actions:          o.policy.p,
		Inbox:            o.inbox.mailbox(),
		OperationTimeout: o.limits.Effective().OperationTimeout,
		IdleTimeout:      o.idle,
		Launch:           o.launch,
		Ready:            ready,
		Logger:           log,
	})
	switch {
	case errors.Is(err, session.ErrRunning):
		return exitOK, nil
	case err != nil:
		return exitFailed, err
	}
	return exitOK, nil
}
