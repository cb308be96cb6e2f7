package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/webagent/webagent/fleet"
	"github.com/webagent/webagent/liveview"
)

// The fleet's live views: `worker --live` serves one per task run, and
// `submit --live` sends a key the worker seals the view's URLs to, then
// prints them on stderr as soon as the run has them (package fleet's
// live.go says why they travel sealed).

// workerLive are the worker's live view flags: run's, and the URL
// submitters reach the server at.
type workerLive struct {
	liveFlags
	publicURL string
}

func (l *workerLive) register(fs *flag.FlagSet) {
	fs.Var(&l.addr, "live", "serve a live view of every task this worker runs (watch it, answer its questions, take over between its steps): --live on a free loopback port (submitters on this machine), --live=HOST:PORT on that address, which needs --live-cert and --live-key unless it is loopback (--live=0.0.0.0:8443 also --live-url); each view's URLs go sealed to its submitter (webagent submit --live), never into Temporal as they are")
	fs.StringVar(&l.certFile, "live-cert", "", "the live views' TLS certificate (PEM), for --live on an address other than loopback")
	fs.StringVar(&l.keyFile, "live-key", "", "the TLS certificate's private key (PEM), with --live-cert")
	fs.StringVar(&l.publicURL, "live-url", "", "the base of the live views' URLs, https://NAME:PORT, where submitters reach this worker (the name its certificate carries); needed with --live=0.0.0.0:PORT (default the address of --live)")
}

func (l *workerLive) validate() error {
	if err := l.liveFlags.validate(); err != nil {
		return err
	}
	if !l.addr.set {
		if l.publicURL != "" {
			return usagef("--live-url goes with --live")
		}
		return nil
	}
	if l.addr.addr == "" || l.publicURL != "" {
		return nil
	}
	host, port, err := net.SplitHostPort(l.addr.addr)
	if err != nil {
		return usagef("--live=%s is not HOST:PORT, e.g. --live=0.0.0.0:8443", l.addr.addr)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		return usagef("--live=%s listens on every interface: say where submitters reach it with --live-url, e.g. --live-url https://%s:%s (the name the certificate of --live-cert carries)",
			l.addr.addr, "worker-1.example", port)
	}
	return nil
}

// start serves the worker's live views when --live was given; nil without.
func (l *workerLive) start(log *slog.Logger) (*liveview.Server, error) {
	if !l.addr.set {
		return nil, nil
	}
	srv, err := liveview.Start(liveview.Config{Addr: l.addr.addr, CertFile: l.certFile, KeyFile: l.keyFile,
		PublicURL: l.publicURL, Register: true, Logger: log})
	if errors.Is(err, liveview.ErrTLSRequired) {
		return nil, usagef("--live=%s: %v (--live-cert, --live-key), or use a loopback address", l.addr.addr, err)
	}
	if err != nil {
		return nil, usagef("--live: %v", err)
	}
	return srv, nil
}

// closeLive ends the worker's live views, briefly.
func closeLive(srv *liveview.Server) {
	if srv == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = srv.Close(ctx)
}

// liveEvery is how often `submit --live` asks for the task's live view.
const liveEvery = time.Second

// liveQueryTimeout bounds one such question.
const liveQueryTimeout = 5 * time.Second

// watchLive prints the live view of task id on stderr as soon as its run
// has one, and again whenever it changes (the task restarted on another
// worker, a viewer revoked the links), until stop is called. The URLs go
// to stderr alone, for the person: never into the result.
func watchLive(ctx context.Context, fc *fleet.Client, id string, key *fleet.LiveKey, stderr io.Writer) (stop func()) {
	if key == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(liveEvery)
		defer t.Stop()
		var last fleet.LiveURLs
		for {
			qctx, qcancel := context.WithTimeout(ctx, liveQueryTimeout)
			u, err := fc.Live(qctx, id, key)
			qcancel()
			if err == nil && u != nil && *u != last {
				last = *u
				fmt.Fprintf(stderr, "task %s runs on worker %s (attempt %d); its live view:\nlive view (watch):   %s\nlive view (control): %s\n",
					id, u.Worker, u.Attempt, u.View, u.Control)
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	})
	return func() {
		cancel()
		wg.Wait()
	}
}

// liveNote says, in the worker's first line, where its live views are.
func liveNote(srv *liveview.Server) string {
	if srv == nil {
		return ""
	}
	return ", live views on " + srv.Base() + " (their URLs go sealed to each task's submitter: webagent submit --live)"
}

// registerLive registers submit's --live.
func (o *submitOpts) registerLive(fs *flag.FlagSet) {
	fs.BoolVar(&o.live, "live", false, "print the task's live view on stderr as soon as its run has one, on a worker started with --live (watch it, answer its questions, take over between its steps): its URLs are sealed for this process, which alone reads them, and never enter the result")
}

// sealTo gives task t the public half of a new key when --live asks for
// the task's live view.
func (o *submitOpts) sealTo(t *fleet.Task) error {
	if !o.live {
		return nil
	}
	if o.detach {
		return usagef("--live prints the live view while submit waits: drop --detach (the key that reads its URLs lives only in this process)")
	}
	k, err := fleet.NewLiveKey()
	if err != nil {
		return err
	}
	o.liveKey, t.LiveKey = k, k.Public()
	return nil
}
