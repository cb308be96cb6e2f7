package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/webagent/webagent/eval/export"
	"github.com/webagent/webagent/eval/report"
)

// cmdEvalExport writes a finished eval's dataset runs in a benchmark's
// format (package export).
func cmdEvalExport(args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("eval export", flag.ContinueOnError)
	format := fs.String("format", "", "the format: "+strings.Join(export.Formats(), " or "))
	out := fs.String("out", "", "the folder to write into (default DIR)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage: webagent eval export --format %s [--out DIR2] DIR

Writes the dataset runs of the eval in DIR in a benchmark's format, from its
report.json and traces: online-mind2web writes DIR/online-mind2web/ (a folder
per task with result.json and trajectory/, and submission.jsonl); webvoyager
writes DIR/webvoyager-results.jsonl. eval writes both after a --dataset run.

Flags:
`, strings.Join(export.Formats(), "|"))
		printFlags(fs)
	}
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return exitUsage, err
	}
	if len(pos) != 1 {
		return exitUsage, usagef("eval export takes the folder of one eval: webagent eval export --format online-mind2web DIR")
	}
	if !slices.Contains(export.Formats(), *format) {
		return exitUsage, usagef("--format %q: use %s", *format, strings.Join(export.Formats(), " or "))
	}
	dir := pos[0]
	rep, err := report.Load(filepath.Join(dir, "report.json"))
	if err != nil {
		return exitUsage, usagef("%v (eval export takes the folder an eval wrote, with its report.json and traces/)", err)
	}
	to := *out
	if to == "" {
		to = dir
	}
	paths, err := export.Write(*format, dir, rep, to)
	switch {
	case errors.Is(err, export.ErrNoRuns):
		return exitUsage, usagef("%s: %v", dir, err)
	case err != nil:
		return exitFailed, err
	}
	for _, p := range paths {
		fmt.Fprintln(stderr, "wrote", p)
	}
	return exitOK, nil
}

// exportDatasets writes every format of the report's dataset runs beside
// it; a report without any writes nothing.
func exportDatasets(rep *report.Report, dir string, stderr io.Writer) {
	for _, f := range export.Formats() {
		if _, err := export.Write(f, dir, rep, dir); err != nil && !errors.Is(err, export.ErrNoRuns) {
			fmt.Fprintf(stderr, "webagent: writing the %s export: %v\n", f, err)
		}
	}
}
