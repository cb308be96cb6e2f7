package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/webagent/webagent/testfixture/tier"
)

func TestBenchUsageErrors(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"bench"},
		{"bench", "tokens", "."},
		{"bench", "snapshot"},
		{"bench", "snapshot", "/no/such/dir"},
		{"bench", "snapshot", "--snapshot-tokens", "0", "."},
		{"bench", "snapshot", "--repeat", "0", "."},
	} {
		code, p := run(t, args...)
		if code != exitUsage || !strings.HasPrefix(p.stderr.String(), "webagent: ") || strings.Count(p.stderr.String(), "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q", args, code, p.stderr.String())
		}
	}
	if code, p := run(t, "run", "--snapshot-tokens", "-5", "--url", "https://example.org", "--model", "m", "--base-url", "http://127.0.0.1:1/v1", "task"); code != exitUsage || !strings.Contains(p.stderr.String(), "--snapshot-tokens is -5") {
		t.Errorf("run --snapshot-tokens -5: exit %d, stderr %q", code, p.stderr.String())
	}
}

// TestBenchSnapshot runs the benchmark on the pages of its package's tests.
func TestBenchSnapshot(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	code, p := run(t, "bench", "snapshot", filepath.Join("..", "..", "eval", "snapbench", "testdata"))
	if code != exitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, p.stdout.String(), p.stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(p.stdout.String()), "\n")
	if len(lines) != 5 || lines[0] != "page,tokens,ms,refs,interactive,covered" || !strings.HasPrefix(lines[4], "# 3 pages: ") ||
		!strings.Contains(lines[4], "(100.0%), 3/3 pages fully covered") {
		t.Errorf("output:\n%s", p.stdout.String())
	}
	p.noChromeLeft(t)
}
