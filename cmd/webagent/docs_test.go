package main

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/webagent/webagent/eval"
)

var updateDocs = flag.Bool("update", false, "rewrite docs/cli.md from the commands' flag sets")

const cliReferencePath = "../../docs/cli.md"

// TestCLIReference fails when docs/cli.md is not what the commands' flag
// sets write; -update rewrites it.
func TestCLIReference(t *testing.T) {
	// Flag defaults read from the environment would make the page differ
	// from machine to machine.
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "WEBAGENT_") || strings.HasPrefix(k, "OPENAI_") || strings.HasPrefix(k, "OTEL_") || k == "CHROME_PATH" {
			t.Setenv(k, "")
			os.Unsetenv(k)
		}
	}
	got := cliReference(t)
	if *updateDocs {
		if err := os.WriteFile(cliReferencePath, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(cliReferencePath)
	if err != nil {
		t.Fatalf("%v; write it with: go test ./cmd/webagent -run TestCLIReference -update", err)
	}
	if string(want) != got {
		t.Fatalf("docs/cli.md is not what the commands' flag sets write (first difference at line %d); "+
			"regenerate it with: go test ./cmd/webagent -run TestCLIReference -update", firstDiffLine(string(want), got))
	}
}

func firstDiffLine(a, b string) int {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return i + 1
		}
	}
	return min(len(al), len(bl)) + 1
}

// machineDefault is a default that depends on the machine (eval's workers:
// its cores, at most 4), written as such.
var machineDefault = regexp.MustCompile(fmt.Sprintf(`(?m)^(  --workers .*\n.*) \(default %d\)$`, eval.DefaultWorkers()))

// helpOf is what `webagent ARGS` prints (a command's help), with the
// machine's own defaults written as what they depend on.
func helpOf(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := realMain(args, &stdout, &stderr); code != exitOK {
		t.Fatalf("webagent %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
	}
	return machineDefault.ReplaceAllString(stdout.String(), "$1 (default the machine's cores, at most 4)")
}

func block(s string) string {
	return "```text\n" + strings.TrimRight(s, "\n") + "\n```\n\n"
}

// cliReference writes docs/cli.md: every command's help, from its flag set.
func cliReference(t *testing.T) string {
	var b strings.Builder
	b.WriteString("# CLI reference\n\n" +
		"<!-- Generated from the commands' flag sets: go test ./cmd/webagent -run TestCLIReference -update. Do not edit. -->\n\n" +
		"Every command and its flags, as `webagent help COMMAND` (or `webagent COMMAND --help`) prints them. " +
		"This page is generated from the commands' flag sets, and a test fails when it is not current. " +
		"Flags may come before or after the arguments, and are written `--name` (`-name` works too). " +
		"What the flags do in practice: [run.md](run.md) for a task, [eval.md](eval.md), [coding-agents.md](coding-agents.md), " +
		"[mcp.md](mcp.md), [fleet.md](fleet.md), [traces.md](traces.md).\n\n")
	b.WriteString("## webagent\n\n" + block(helpOf(t, "help")))
	for _, cmd := range commands {
		switch cmd {
		case "help", "browser":
			continue
		case "version":
			b.WriteString("## webagent version\n\n" + block("Usage: webagent version\n\nPrints the module version and the git commit it was built from (also --version). No flags."))
			continue
		case "completion":
			b.WriteString("## webagent completion\n\n" + block("Usage: webagent completion bash|zsh|fish\n\nPrints a shell completion script for the commands and their flags. No flags."))
			continue
		}
		b.WriteString("## webagent " + cmd + "\n\n" + block(helpOf(t, "help", cmd)))
		if cmd == "routine" {
			for _, sub := range []string{"save", "check", "list", "run", "diff", "accept"} {
				b.WriteString("### webagent routine " + sub + "\n\n" + block(helpOf(t, "routine", sub, "--help")))
			}
		}
		if cmd == "eval" {
			for _, sub := range []string{"compare", "judge", "export"} {
				b.WriteString("### webagent eval " + sub + "\n\n" + block(helpOf(t, "eval", sub, "--help")))
			}
		}
	}
	browserReference(t, &b)
	return b.String()
}

// browserReference writes webagent browser: its commands, the flags of
// every command that may start the session once, then each command's own.
func browserReference(t *testing.T, b *strings.Builder) {
	b.WriteString("## webagent browser\n\n" + block(helpOf(t, "browser", "--help")))
	cmds := browserCommands()
	shared, starting := map[string]int{}, 0
	for _, c := range cmds {
		if !c.startsSession() {
			continue
		}
		starting++
		fs, _ := browserFlagSet(c)
		fs.VisitAll(func(f *flag.Flag) { shared[f.Name]++ })
	}
	isShared := func(name string) bool { return shared[name] == starting }
	flags := func(c browserCommand, keep func(name string) bool) string {
		fs, _, g := browserFlagGroups(c)
		var w bytes.Buffer
		fs.SetOutput(&w)
		g.printWhere(keep)
		return w.String()
	}
	b.WriteString("### The flags of every command that may start the session\n\n" +
		"Every command but status, close and sessions starts the session when none runs; the flags of its browser apply then.\n\n" +
		block(flags(cmds[0], isShared)))
	for _, c := range cmds {
		fmt.Fprintf(b, "### webagent browser %s\n\n", c.Name)
		text := fmt.Sprintf("Usage: webagent browser %s%s [flags]\n\n%s\n", c.Name, c.Positionals(), c.desc)
		switch {
		case !c.startsSession():
			text += "\n" + flags(c, func(string) bool { return true })
		default:
			if own := flags(c, func(name string) bool { return !isShared(name) }); own != "" {
				text += "\nBesides the flags above:\n\n" + own
			}
		}
		b.WriteString(block(text))
	}
}

// The pages TestDocCommands reads: README.md and docs/*.md.
func docPages(t *testing.T) []string {
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"../../README.md"}, pages...)
}

// docCommandTests are the webagent commands the docs show in sh code
// blocks that need no network, each written as the docs write it (its
// arguments after "webagent", comment left out), with the test that runs
// it.
var docCommandTests = map[string]string{
	"eval":          "TestEvalBuiltinTasks", // built-in tasks through the CLI; TestBuiltinSuiteUnderLoad (eval) runs every one
	"demo":          "TestDemoHuman",
	"console runs/": "TestConsoleReplay", // console DIR, a folder of traces
	"eval --local-model --task wiki-default-port": "TestRealModelEval",   // with bounds of its own; skipped without the install
	"routine diff add-customer":                   "TestRoutineCommands", // with --routines DIR
	"routine accept add-customer":                 "TestRoutineCommands",
}

// A webagent command in a shell line: webagent or bin/webagent at the
// start of a command (or after a space), then its arguments up to the
// command's end.
var docCommand = regexp.MustCompile(`(?:^|[\s;&|(])(?:bin/)?webagent\s+([^;&|]*)`)

// TestDocCommands checks that every webagent command in a sh code block of
// README.md and docs/ is run by a test (docCommandTests), or that its
// block says it needs a network or a model the tests do not start: an info
// string "sh network". It also checks that relative links resolve.
func TestDocCommands(t *testing.T) {
	t.Parallel()
	tests := testFuncs(t)
	for name, test := range docCommandTests {
		if !tests[test] {
			t.Errorf("docCommandTests: %q names %s, which is no test of this repository", name, test)
		}
	}
	for _, page := range docPages(t) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		rel := strings.TrimPrefix(page, "../../")
		for _, c := range shellCommands(string(data)) {
			if _, ok := docCommandTests[c.text]; !ok {
				t.Errorf("%s:%d: `webagent %s` is run by no test: name the test that runs it in docCommandTests "+
					"(cmd/webagent/docs_test.go), or mark its block as needing a network (```sh network)", rel, c.line, c.text)
			}
		}
		checkLinks(t, page, rel, string(data))
	}
}

type docCmd struct {
	line int
	text string // after "webagent"
}

// shellCommands are the webagent commands in a page's sh blocks that are
// not marked network.
func shellCommands(page string) []docCmd {
	var out []docCmd
	inBlock, checked := false, false
	for i, line := range strings.Split(page, "\n") {
		if rest, ok := strings.CutPrefix(line, "```"); ok {
			if !inBlock {
				info := strings.Fields(rest)
				checked = len(info) > 0 && (info[0] == "sh" || info[0] == "bash" || info[0] == "shell") && !slices.Contains(info, "network")
			}
			inBlock = !inBlock
			continue
		}
		if !inBlock || !checked {
			continue
		}
		code, _, _ := strings.Cut(line, " #")
		for _, m := range docCommand.FindAllStringSubmatch(code, -1) {
			words := strings.Fields(m[1])
			if len(words) == 0 || !slices.Contains(commands, words[0]) {
				continue
			}
			out = append(out, docCmd{line: i + 1, text: strings.Join(words, " ")})
		}
	}
	return out
}

var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// checkLinks checks that a page's relative links name files that exist.
func checkLinks(t *testing.T, page, rel, data string) {
	t.Helper()
	for _, m := range mdLink.FindAllStringSubmatch(data, -1) {
		target, _, _ := strings.Cut(m[1], "#")
		if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(page), target)); err != nil {
			t.Errorf("%s: the link %s does not resolve: %v", rel, m[1], err)
		}
	}
}

// testFuncs are the names of the repository's Test functions.
func testFuncs(t *testing.T) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	decl := regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == ".tools" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, "_test.go") {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range decl.FindAllStringSubmatch(string(data), -1) {
				names[m[1]] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}
