package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/webagent/webagent/console"
)

// consoleOpts are console's flags.
type consoleOpts struct {
	addr          string
	certFile      string
	keyFile       string
	replayTimeout time.Duration
}

// consoleClose bounds the console's end: its replays are told to end and
// killed after their grace, then the server stops.
const consoleClose = 10 * time.Second

func consoleFlags() (*flag.FlagSet, *consoleOpts) {
	o := &consoleOpts{}
	fs, g := newFlagGroups("console")
	g.add("Console", func(fs *flag.FlagSet) {
		fs.StringVar(&o.addr, "addr", "127.0.0.1:0", "where to serve the console: HOST:PORT (port 0: a free one); an address other than loopback needs --cert and --key")
		fs.StringVar(&o.certFile, "cert", "", "the console's TLS certificate (PEM), for an --addr other than loopback")
		fs.StringVar(&o.keyFile, "key", "", "the TLS certificate's private key (PEM), with --cert")
		fs.DurationVar(&o.replayTimeout, "replay-timeout", console.DefaultReplayTimeout, "bound on a replay started from the console (webagent replay --live DIR, a child process): past it the replay is ended")
	})
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: webagent console [flags] [DIR...]\n\n"+
			"Serves one page that lists the live runs of this machine (started with --live) and the past runs in the\n"+
			"trace and cache folders DIR (run --trace DIR, --cache DIR; a folder is searched for traces a few levels\n"+
			"down; the current folder when none is given), with their results. A live run opens in its live view; a past\n"+
			"run opens with its steps beside their screenshots, and can be replayed (webagent replay --live, no model).\n"+
			"The page's URL, with its token, is printed on stderr. It serves until interrupted (exit 130).\n\n")
		g.print()
	}
	return fs, o
}

// cmdConsole serves the console until ctx ends.
func cmdConsole(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs, o := consoleFlags()
	dirs, err := parseFlags(fs, args, stdout)
	if err != nil {
		return exitUsage, err
	}
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	for _, d := range dirs {
		fi, err := os.Stat(d)
		if err != nil {
			return exitUsage, usagef("console: %s: %v; give trace or cache folders (run --trace DIR, --cache DIR)", d, errors.Unwrap(err))
		}
		if !fi.IsDir() {
			return exitUsage, usagef("console: %s is a file; give trace or cache folders (run --trace DIR, --cache DIR)", d)
		}
	}
	if o.replayTimeout <= 0 {
		return exitUsage, usagef("--replay-timeout is %s; use a positive duration such as 10m", o.replayTimeout)
	}
	if (o.certFile == "") != (o.keyFile == "") {
		return exitUsage, usagef("--cert and --key go together: give both PEM files")
	}
	exe, err := os.Executable()
	if err != nil {
		return exitFailed, fmt.Errorf("console: finding this program, to replay runs with: %w", err)
	}
	srv, err := console.Start(console.Config{Addr: o.addr, CertFile: o.certFile, KeyFile: o.keyFile, Dirs: dirs,
		ReplayTimeout: o.replayTimeout,
		Replay:        func(dir string) []string { return []string{exe, "replay", "--live", dir} }})
	if errors.Is(err, console.ErrTLSRequired) {
		return exitUsage, usagef("--addr %s: %v (--cert, --key), or use a loopback address", o.addr, err)
	}
	if err != nil {
		return exitUsage, usagef("%v", err)
	}
	fmt.Fprintf(stderr, "webagent console: %s\n", srv.URL())
	<-ctx.Done()
	cctx, cancel := context.WithTimeout(context.Background(), consoleClose)
	defer cancel()
	if err := srv.Close(cctx); err != nil {
		return exitFailed, fmt.Errorf("console: closing: %w", err)
	}
	return exitInterrupted, nil
}
