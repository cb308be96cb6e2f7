package suite

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/webagent/webagent/agent"
)

const goodFile = `suite: demo
site: shop
limits:
  max_iterations: 30
  task_timeout: 10m
tags: [base]
tasks:
  - id: first
    path: /products
    instruction: >-
      Buy a mug.
    tags: [checkout]
    limits:
      iteration_timeout: 90s
    secrets:
      card: "4111"
    checks:
      - answer_contains: SO-
      - answer_number: 12.5
        tolerance: 0.01
      - state: {path: "orders.0.items[slug=blue-mug].quantity", equals: 2}
      - state: {path: orders, count: 1}
      - element_text: {selector: "#total", contains: "$"}
      - url_regex: '/orders/SO-[0-9]+$'
    reference: |
      # a comment line
      click "Add to cart" in "Blue mug"

      type "Search products" "mug" submit; click "Search"
      done "ok"
  - id: second
    url: https://example.org/start
    instruction: Read the page.
    secrets:
      pw@https://login.example.org: "s3cret"
    allowed_domains: [example.org, "*.shop.example"]
    blocked_domains: ["http://localhost:3000"]
    checks:
      - page_js: "document.title !== ''"
    reference:
      - goto "/next"
      - 'done "{{/Title: (.*)/}}"'
`

func TestParseGoodFile(t *testing.T) {
	t.Parallel()
	tasks, err := Parse("demo.yaml", []byte(goodFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 2 {
		t.Fatalf("%d tasks", len(tasks))
	}
	a, b := tasks[0], tasks[1]
	if a.ID != "first" || a.Suite != "demo" || a.Site != "shop" || a.Path != "/products" || a.Instruction != "Buy a mug." || a.File != "demo.yaml" || a.Line != 8 {
		t.Errorf("first = %+v", a)
	}
	if got := strings.Join(a.Tags, ","); got != "base,checkout" {
		t.Errorf("tags = %s", got)
	}
	if a.Limits != (agent.Limits{MaxIterations: 30, IterationTimeout: 90 * time.Second, TaskTimeout: 10 * time.Minute}) {
		t.Errorf("limits = %+v", a.Limits)
	}
	if nav := b.Navigation; len(nav.Allowed) != 2 || nav.Allowed[1].String() != "*.shop.example" || len(nav.Blocked) != 1 || nav.Blocked[0].Port != "3000" {
		t.Errorf("domains = %v, %v", nav.Allowed, nav.Blocked)
	}
	if a.Secrets["card"] != "4111" || b.Secrets["pw@https://login.example.org"] != "s3cret" {
		t.Errorf("secrets = %v", a.Secrets)
	}
	if len(a.Checks) != 6 || a.Checks[1].Number != 12.5 || a.Checks[1].Tolerance != 0.01 || a.Checks[2].Path != "orders.0.items[slug=blue-mug].quantity" ||
		a.Checks[2].Want != 2.0 || a.Checks[4].Selector != "#total" || a.Checks[4].Op != OpContains || a.Checks[2].Line != 21 {
		t.Errorf("checks = %+v", a.Checks)
	}
	turns := a.Reference.Turns
	if len(turns) != 3 || turns[0].Line != 27 || turns[1].Line != 29 || len(turns[1].Steps) != 2 || turns[2].Line != 30 {
		t.Fatalf("turns = %+v", turns)
	}
	if s := turns[1].Steps[0]; s.Verb != "type" || s.Name != "Search products" || s.Args["text"] != "mug" || !s.Flags["submit"] {
		t.Errorf("type step = %+v", s)
	}
	if b.Site != "" || b.URL != "https://example.org/start" || b.Path != "" || b.Limits.MaxIterations != 30 {
		t.Errorf("second = %+v", b)
	}
	if tr := b.Reference.Turns; len(tr) != 2 || tr[0].Line != 41 || tr[1].Line != 42 {
		t.Errorf("list reference = %+v", tr)
	}
	if got := a.StartURL("http://127.0.0.1:9/"); got != "http://127.0.0.1:9/products" {
		t.Errorf("StartURL = %s", got)
	}
	if got := b.StartURL("http://127.0.0.1:9"); got != "https://example.org/start" {
		t.Errorf("StartURL = %s", got)
	}
	at := a.AgentTask("http://127.0.0.1:9")
	if at.URL != "http://127.0.0.1:9/products" || at.Instruction != "Buy a mug." || at.Secrets["card"] != "4111" {
		t.Errorf("AgentTask = %+v", at)
	}
	if n := len(a.AgentOptions()); n != 2 {
		t.Errorf("AgentOptions gave %d options", n)
	}
}

func TestParseSingleTaskFile(t *testing.T) {
	t.Parallel()
	tasks, err := Parse("dir/one-task.yml", []byte("id: solo\nsite: wiki\ninstruction: Read.\nchecks:\n  - answer_contains: x\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 1 || tasks[0].Suite != "one-task" || tasks[0].Path != "/" || tasks[0].Reference != nil {
		t.Fatalf("tasks = %+v", tasks[0])
	}
}

// task wraps the lines of one task (indented by the caller) in a suite.
func oneTask(lines string) string {
	return "tasks:\n  - id: t1\n    site: shop\n    instruction: Do it.\n" + lines
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src string
		line      int
		field     string
		msg       string
	}{
		{"bad yaml", "tasks: [\n  - id: x\n", 1, "", "not valid YAML"},
		{"empty file", "", 0, "", "the file is empty"},
		{"top is a list", "- id: x\n", 1, "", "must be a mapping"},
		{"unknown top field", "suit: x\ntasks:\n  - id: a\n", 1, "suit", `unknown field "suit" (did you mean "suite"?)`},
		{"unknown task field", oneTask("    chekcs:\n      - answer_contains: x\n"), 5, "chekcs", `unknown field "chekcs" (did you mean "checks"?)`},
		{"missing id", "tasks:\n  - site: shop\n    instruction: x\n    checks: [{answer_contains: x}]\n", 2, "id", "missing: every task needs an id"},
		{"bad id", "tasks:\n  - id: a b\n    site: shop\n    instruction: x\n    checks: [{answer_contains: x}]\n", 2, "id", "is not a valid id"},
		{"missing instruction", "tasks:\n  - id: a\n    site: shop\n    checks: [{answer_contains: x}]\n", 2, "instruction", "missing"},
		{"empty instruction", "tasks:\n  - id: a\n    site: shop\n    instruction: ''\n    checks: [{answer_contains: x}]\n", 4, "instruction", "must not be empty"},
		{"missing checks", "tasks:\n  - id: a\n    site: shop\n    instruction: x\n", 2, "checks", "missing"},
		{"empty checks", oneTask("    checks: []\n"), 5, "checks", "non-empty list"},
		{"missing site", "tasks:\n  - id: a\n    instruction: x\n    checks: [{answer_contains: x}]\n", 2, "site", "needs a site"},
		{"unknown site", "tasks:\n  - id: a\n    site: shopp\n    instruction: x\n    checks: [{answer_contains: x}]\n", 3, "site", `unknown site "shopp"`},
		{"site and url", oneTask("    url: https://x.org/\n    checks: [{answer_contains: x}]\n"), 5, "url", "either a site or a url"},
		{"relative url", "tasks:\n  - id: a\n    url: /x\n    instruction: x\n    checks: [{answer_contains: x}]\n", 3, "url", "not an absolute URL"},
		{"path without slash", oneTask("    path: products\n    checks: [{answer_contains: x}]\n"), 5, "path", "must start with /"},
		{"bad duration", oneTask("    limits:\n      task_timeout: 10x\n    checks: [{answer_contains: x}]\n"), 6, "limits.task_timeout", "not a positive Go duration"},
		{"negative duration", oneTask("    limits: {iteration_timeout: -1s}\n    checks: [{answer_contains: x}]\n"), 5, "limits.iteration_timeout", "not a positive Go duration"},
		{"bad max_iterations", oneTask("    limits: {max_iterations: 0}\n    checks: [{answer_contains: x}]\n"), 5, "limits.max_iterations", "at least 1"},
		{"unknown limit", oneTask("    limits: {max_iteration: 3}\n    checks: [{answer_contains: x}]\n"), 5, "limits.max_iteration", `did you mean "max_iterations"`},
		{"bad answer regex", oneTask("    checks:\n      - answer_regex: 'a(b'\n"), 6, "checks[0].answer_regex", "bad regex"},
		{"bad url regex", oneTask("    checks:\n      - answer_contains: x\n      - url_regex: '[z-a]'\n"), 7, "checks[1].url_regex", "bad regex"},
		{"bad state regex", oneTask("    checks:\n      - state: {path: a, regex: '*'}\n"), 6, "checks[0].state.regex", "bad regex"},
		{"unknown check", oneTask("    checks:\n      - answer_has: x\n"), 6, "checks[0].answer_has", "unknown field"},
		{"two kinds", oneTask("    checks:\n      - answer_contains: x\n        url_contains: y\n"), 7, "checks[0].url_contains", "a check has one kind"},
		{"tolerance alone", oneTask("    checks:\n      - answer_contains: x\n        tolerance: 1\n"), 7, "checks[0].tolerance", "only with answer_number"},
		{"bad number", oneTask("    checks:\n      - answer_number: twelve\n"), 6, "checks[0].answer_number", "not a number"},
		{"state without path", oneTask("    checks:\n      - state: {equals: 1}\n"), 6, "checks[0].state.path", "missing"},
		{"state without operator", oneTask("    checks:\n      - state: {path: a}\n"), 6, "checks[0].state", "give one operator"},
		{"state two operators", oneTask("    checks:\n      - state: {path: a, equals: 1, count: 1}\n"), 6, "checks[0].state.count", "give one operator"},
		{"bad state path", oneTask("    checks:\n      - state: {path: 'a..b', equals: 1}\n"), 6, "checks[0].state.path", "bad path"},
		{"bad count", oneTask("    checks:\n      - state: {path: a, count: -1}\n"), 6, "checks[0].state.count", "0 or more"},
		{"state needs site", "tasks:\n  - id: a\n    url: https://x.org/\n    instruction: x\n    checks:\n      - state: {path: a, count: 1}\n", 6, "checks[0]", "state checks need a site"},
		{"element_text without op", oneTask("    checks:\n      - element_text: {selector: h1}\n"), 6, "checks[0].element_text", "give one of"},
		{"bad reference line", oneTask("    checks: [{answer_contains: x}]\n    reference: |\n      click \"A\"\n      klick \"B\"\n      done \"x\"\n"), 8, "reference", `unknown verb "klick"`},
		{"reference list item", oneTask("    checks: [{answer_contains: x}]\n    reference:\n      - click \"A\"\n      - type \"B\"\n      - done \"x\"\n"), 8, "reference", "type needs its text"},
		{"reference without done", oneTask("    checks: [{answer_contains: x}]\n    reference: |\n      click \"A\"\n"), 7, "reference", "must end with done"},
		{"unquoted list line", oneTask("    checks: [{answer_contains: x}]\n    reference:\n      - click \"A\"\n      - done \"a: b\"\n"), 8, "reference[1]", "quote the line"},
		{"folded reference", oneTask("    checks: [{answer_contains: x}]\n    reference: >\n      click \"A\"\n      done \"x\"\n"), 6, "reference", "not a folded one"},
		{"repeated field", oneTask("    checks: [{answer_contains: x}]\n    instruction: again\n"), 6, "instruction", "given twice"},
		{"bad domain", oneTask("    checks: [{answer_contains: x}]\n    allowed_domains: [example.org, 'ex*ample.org']\n"), 6, "allowed_domains[1]", "wildcard"},
		{"bad secret origin", oneTask("    checks: [{answer_contains: x}]\n    secrets: {'pw@ftp://x': x}\n"), 6, "secrets.pw@ftp://x", "not an http or https origin"},
		{"secret name", oneTask("    checks: [{answer_contains: x}]\n    secrets: {'a b': x}\n"), 6, "secrets.a b", "may hold only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.yaml", []byte(tc.src))
			var es Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Fatalf("err = %v, want Errors", err)
			}
			for _, e := range es {
				if e.File == "f.yaml" && e.Line == tc.line && e.Field == tc.field && strings.Contains(e.Msg, tc.msg) {
					want := "f.yaml"
					if tc.line > 0 {
						want += ":" + strconv.Itoa(tc.line)
					}
					if !strings.HasPrefix(e.Error(), want+": ") {
						t.Errorf("message %q does not start with %s", e.Error(), want)
					}
					return
				}
			}
			t.Fatalf("no error at line %d, field %q, with %q in:\n%v", tc.line, tc.field, tc.msg, err)
		})
	}
}

func TestErrorNamesTask(t *testing.T) {
	t.Parallel()
	_, err := Parse("f.yaml", []byte(oneTask("    limits: {task_timeout: soon}\n    checks: [{answer_contains: x}]\n")))
	if got := err.Error(); got != `f.yaml:5: task "t1": limits.task_timeout: "soon" is not a positive Go duration such as 90s, 5m or 1h30m` {
		t.Fatalf("err = %s", got)
	}
}

func TestParseReportsEveryError(t *testing.T) {
	t.Parallel()
	src := "tasks:\n  - id: a\n    site: nope\n    instruction: x\n    checks: [{answer_regex: '('}]\n  - id: b\n    site: shop\n    checks: [{answer_contains: x}]\n"
	_, err := Parse("f.yaml", []byte(src))
	var es Errors
	if !errors.As(err, &es) || len(es) != 3 {
		t.Fatalf("want 3 errors, got %v", err)
	}
}

func TestDuplicateIDs(t *testing.T) {
	t.Parallel()
	task := func(id string) string {
		return "  - id: " + id + "\n    site: wiki\n    instruction: x\n    checks: [{answer_contains: x}]\n"
	}
	_, err := Parse("f.yaml", []byte("tasks:\n"+task("a")+task("a")))
	if err == nil || !strings.Contains(err.Error(), `f.yaml:6: task "a": id: duplicate id: the task at f.yaml:2 has it too`) {
		t.Fatalf("same file: %v", err)
	}
	fsys := fstest.MapFS{
		"s/one.yaml":     {Data: []byte("tasks:\n" + task("x") + task("y"))},
		"s/sub/two.yml":  {Data: []byte("tasks:\n" + task("z") + task("x"))},
		"s/notes.txt":    {Data: []byte("not a task file")},
		"other/bad.yaml": {Data: []byte("::")},
	}
	_, err = LoadFS(fsys, "s")
	if err == nil || !strings.Contains(err.Error(), `s/sub/two.yml:6: task "x": id: duplicate id: the task at s/one.yaml:2 has it too`) {
		t.Fatalf("across files: %v", err)
	}
	delete(fsys, "s/sub/two.yml")
	tasks, err := LoadFS(fsys, "s")
	if err != nil || len(tasks) != 2 || tasks[0].Suite != "one" {
		t.Fatalf("LoadFS = %v, %v", tasks, err)
	}
}

func TestLoadPath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := "tasks:\n  - id: a\n    site: wiki\n    instruction: x\n    checks: [{answer_contains: x}]\n"
	if err := os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	tasks, err := Load(filepath.Join(dir, "a.yaml"))
	if err != nil || len(tasks) != 1 || tasks[0].File != filepath.Join(dir, "a.yaml") {
		t.Fatalf("Load(file) = %v, %v", tasks, err)
	}
	tasks, err = Load(dir)
	if err != nil || len(tasks) != 1 || tasks[0].File != filepath.Join(dir, "a.yaml") {
		t.Fatalf("Load(dir) = %v, %v", tasks, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.yaml"), []byte("tasks:\n  - id: b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(dir)
	if err == nil || !strings.HasPrefix(err.Error(), filepath.Join(dir, "b.yaml")+":2: ") {
		t.Fatalf("Load(dir) with a bad file: %v", err)
	}
	if _, err := Load(filepath.Join(dir, "missing.yaml")); err == nil {
		t.Fatal("Load of a missing file succeeded")
	}
}

func TestLoadFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, id string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		body := "tasks:\n  - id: " + id + "\n    site: wiki\n    instruction: x\n    checks: [{answer_contains: x}]\n"
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b, again := write("a.yaml", "a"), write("b.yaml", "b"), write("again.yaml", "a")

	tasks, err := LoadFiles([]string{b, a})
	if err != nil || len(tasks) != 2 || tasks[0].ID != "b" || tasks[1].ID != "a" {
		t.Fatalf("LoadFiles(b, a) = %v, %v; want b then a", tasks, err)
	}
	_, err = LoadFiles([]string{a, again})
	if want := again + `:2: task "a" is also defined in ` + a + ":2"; err == nil || err.Error() != want {
		t.Fatalf("LoadFiles with an ID twice: %v; want %s", err, want)
	}
	if _, err := LoadFiles([]string{a, filepath.Join(dir, "missing.yaml")}); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Fatalf("LoadFiles with a missing file: %v", err)
	}
}
