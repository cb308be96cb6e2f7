package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/rs/zerolog"

	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/eval/snapbench"
)

// benchOpts are the flags of `webagent bench snapshot`.
type benchOpts struct {
	chrome   string
	tokens   int
	logLevel string
	dump     string
	repeat   int
	walk     bool
}

func benchFlags() (*flag.FlagSet, *benchOpts) {
	o := &benchOpts{}
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.StringVar(&o.chrome, "chrome", "", "path to the Chromium binary (default $CHROME_PATH, else chromium on PATH)")
	fs.IntVar(&o.tokens, "snapshot-tokens", browser.DefaultSnapshotTokens, "the snapshot's size budget in estimated tokens")
	fs.IntVar(&o.repeat, "repeat", 1, "take each page's snapshot this many times and report the fastest (filters out the noise of a busy machine)")
	fs.StringVar(&o.dump, "dump", "", "write each page's snapshot to this folder (PAGE.txt)")
	fs.BoolVar(&o.walk, "walk", false, "instead, play five in-page actions on each page (type, open a menu, check, select, expand), compare the tokens of the delta after each with the whole snapshot's, and check that each delta rebuilds the snapshot it stands for")
	fs.StringVar(&o.logLevel, "log-level", "warn", "log level on stderr: debug, info, warn, error or disabled")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage: webagent bench snapshot [flags] DIR

Serves DIR's .html files on 127.0.0.1 (every request to another host is
refused), takes one snapshot of each page after its load event and prints
CSV: %s (tokens: %s; interactive:
visible a, button, input, select, textarea, summary, [role=button],
[role=link], [onclick], [contenteditable=true] elements; covered: how many of
them carry a ref), one row a page, then a summary line starting with #.

Flags:
`, snapbench.Header, snapbench.Tokenizer)
		printFlags(fs)
	}
	return fs, o
}

func cmdBench(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs, o := benchFlags()
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return exitUsage, err
	}
	if len(pos) > 0 && pos[0] != "snapshot" && closest(pos[0], []string{"snapshot"}) != "" {
		return exitUsage, usagef("unknown bench %q; did you mean 'webagent bench snapshot DIR'?", pos[0])
	}
	if len(pos) != 2 || pos[0] != "snapshot" {
		return exitUsage, usagef("usage: webagent bench snapshot [flags] DIR (see 'webagent help bench')")
	}
	dir := pos[1]
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return exitUsage, usagef("bench snapshot: %q is not a directory", dir)
	}
	if o.repeat < 1 {
		return exitUsage, usagef("--repeat is %d; it must be at least 1", o.repeat)
	}
	if o.tokens <= 0 {
		return exitUsage, usagef("--snapshot-tokens is %d; it must be positive", o.tokens)
	}
	if _, err := zerolog.ParseLevel(o.logLevel); err != nil || o.logLevel == "" {
		return exitUsage, usagef("--log-level %q is not one of debug, info, warn, error, disabled", o.logLevel)
	}
	c := common{logLevel: o.logLevel}
	if o.walk {
		_, err := snapbench.Walk(ctx, snapbench.Config{Dir: dir, ChromePath: o.chrome, SnapshotTokens: o.tokens, Logger: c.logger(stderr)}, stdout)
		if err != nil {
			return exitFailed, fmt.Errorf("bench snapshot --walk: %w", err)
		}
		return exitOK, nil
	}
	_, sum, err := snapbench.Run(ctx, snapbench.Config{
		Dir:            dir,
		ChromePath:     o.chrome,
		SnapshotTokens: o.tokens,
		Dump:           o.dump,
		Repeat:         o.repeat,
		Logger:         c.logger(stderr),
	}, stdout)
	if err != nil {
		if ctx.Err() != nil {
			return exitInterrupted, fmt.Errorf("interrupted")
		}
		if isBrowserConfigError(err) {
			return exitUsage, usagef("%v", err)
		}
		return exitFailed, err
	}
	if sum.Covered < sum.Interactive {
		return exitFailed, fmt.Errorf("bench snapshot: %d of %d visible interactive elements have no ref", sum.Interactive-sum.Covered, sum.Interactive)
	}
	return exitOK, nil
}
