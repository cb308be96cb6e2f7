package main

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/routinesite"
	"github.com/webagent/webagent/testfixture/tier"
)

// TestRoutineCommands: a run saved with routine save, listed, run with
// other values and no model, healed into a draft when a button is renamed
// (diff, accept), offered to the model by run --routines; bad input is
// exit 2 and a hand-edited typo is named by routine check.
func TestRoutineCommands(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	site := routinesite.New()
	srv := httptest.NewServer(site)
	defer srv.Close()
	llm, err := modelserver.Start(routinesite.Model())
	if err != nil {
		t.Fatal(err)
	}
	defer llm.Close()
	dir := t.TempDir()
	routines := filepath.Join(dir, "routines")
	model := []string{"--base-url", llm.BaseURL(), "--model", "m"}
	secret := []string{"--secret", "customer_pw=" + routinesite.Password}
	must := func(t *testing.T, want int, args ...string) *proc {
		t.Helper()
		code, p := run(t, args...)
		if code != want {
			t.Fatalf("webagent %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, p.stdout.String(), p.stderr.String())
		}
		if args[0] == "routine" {
			t.Logf("webagent %s\n%s%s", strings.Join(args, " "), p.stdout.String(), p.stderr.String())
		}
		return p
	}
	// A run that worked, traced, then saved.
	traceDir := filepath.Join(dir, "trace")
	must(t, exitOK, append(append(append([]string{"run", "--url", srv.URL + "/customers/new", "--trace", traceDir}, model...), secret...),
		routinesite.CustomerTask("Ann Lee", "ann@example.com", "Pro"))...)
	p := must(t, exitOK, "routine", "save", traceDir, "--name", "add-customer", "--routines", routines)
	if out := p.stdout.String(); !strings.Contains(out, "parameters: full_name, email, plan") || !strings.Contains(out, "customer_pw") {
		t.Errorf("routine save said:\n%s", out)
	}
	p = must(t, exitOK, "routine", "list", "--routines", routines)
	if out := p.stdout.String(); !strings.Contains(out, "add-customer") || !strings.Contains(out, "v1") || !strings.Contains(out, "full_name, email, plan") {
		t.Errorf("routine list:\n%s", out)
	}
	// A cache entry: its variables name the parameters.
	entry := filepath.Join(dir, "cache", "add-the-customer-0123456789ab")
	if err := os.MkdirAll(entry, 0o755); err != nil {
		t.Fatal(err)
	}
	events, _ := os.ReadFile(filepath.Join(traceDir, "trace.jsonl"))
	os.WriteFile(filepath.Join(entry, "trace.jsonl"), events, 0o644)
	os.WriteFile(filepath.Join(entry, "entry.json"), []byte(`{"version": 1, "vars": {"customer": "Ann Lee", "mail": "ann@example.com"}}`), 0o644)
	p = must(t, exitOK, "routine", "save", entry, "--name", "from-entry", "--routines", routines)
	if out := p.stdout.String(); !strings.Contains(out, "parameters: customer, mail, plan") {
		t.Errorf("a cache entry's variables are not the parameters:\n%s", out)
	}

	// Run with other values: no model.
	before := len(llm.Requests())
	p = must(t, exitOK, append([]string{"routine", "run", "add-customer", "--routines", routines, "--json",
		"--param", "full_name=Bob Ray", "--param", "email=bob@example.com", "--param", "plan=Team"}, secret...)...)
	var res agent.Result
	if err := json.Unmarshal(p.stdout.Bytes(), &res); err != nil || !strings.Contains(res.Answer, "Customer Bob Ray added") {
		t.Errorf("routine run: %v %+v", err, res)
	}
	if n := len(llm.Requests()) - before; n != 0 {
		t.Errorf("routine run made %d model calls", n)
	}
	p.noChromeLeft(t)
	if c := site.Customers(); len(c) != 2 || c[1] != (routinesite.Customer{Name: "Bob Ray", Email: "bob@example.com", Plan: "Team", Password: routinesite.Password}) {
		t.Errorf("customers %+v", c)
	}

	// --url: the same routine on another copy of the site (staging).
	staging := routinesite.New()
	srv2 := httptest.NewServer(staging)
	defer srv2.Close()
	must(t, exitOK, append([]string{"routine", "run", "add-customer", "--routines", routines, "--url", srv2.URL,
		"--param", "full_name=Sam Oak", "--param", "email=sam@example.com", "--param", "plan=Basic"}, secret...)...)
	if c := staging.Customers(); len(c) != 1 || c[0].Name != "Sam Oak" || len(site.Customers()) != 2 {
		t.Errorf("--url: staging has %+v, the first site %d customers", c, len(site.Customers()))
	}

	t.Run("bad input is exit 2 and changes nothing", func(t *testing.T) {
		for _, args := range [][]string{
			{"routine", "run", "nope", "--routines", routines},
			{"routine", "run", "add-customer", "--routines", routines, "--param", "bogus=1"},
			{"routine", "run", "add-customer", "--routines", routines, "--param", "full_name=Cy"},
			{"routine", "save", traceDir, "--routines", routines},
			{"routine", "save", traceDir, "--name", "add-customer", "--routines", routines},
			{"routine", "save", dir, "--name", "other", "--routines", routines},
			{"routine", "diff", "add-customer", "--routines", routines, "extra"},
			{"routine", "run", "add-customer", "--routines", routines, "--param", "full_name=Cy", "--param", "email=c@example.com", "--param", "plan=Pro"},
		} {
			p := must(t, exitUsage, args...)
			if !strings.Contains(p.stderr.String(), "webagent: ") {
				t.Errorf("%v: no message:\n%s", args, p.stderr.String())
			}
		}
		if n := len(site.Customers()); n != 2 {
			t.Errorf("%d customers", n)
		}
	})

	// A renamed button: healed by the model into a draft; diff, accept.
	site.Rename("Next", "Continue")
	p = must(t, exitOK, append(append([]string{"routine", "run", "add-customer", "--routines", routines,
		"--param", "full_name=Dee Fox", "--param", "email=dee@example.com", "--param", "plan=Basic"}, model...), secret...)...)
	if !strings.Contains(p.stderr.String(), "1 step healed, kept as draft v2") || strings.Contains(p.stderr.String(), "warning") {
		t.Errorf("the healed run's stderr:\n%s", p.stderr.String())
	}
	p = must(t, exitOK, "routine", "list", "--routines", routines)
	if !strings.Contains(p.stdout.String(), "v2 (webagent routine diff add-customer)") {
		t.Errorf("routine list does not show the draft:\n%s", p.stdout.String())
	}
	p = must(t, exitOK, "routine", "diff", "add-customer", "--routines", routines)
	if !strings.Contains(p.stdout.String(), `+click({role: "button", name: "Continue"});`) {
		t.Errorf("routine diff:\n%s", p.stdout.String())
	}
	must(t, exitOK, "routine", "accept", "add-customer", "--routines", routines)
	must(t, exitFailed, "routine", "diff", "add-customer", "--routines", routines)
	must(t, exitOK, "routine", "check", "add-customer", "--routines", routines)

	// A hand-edited typo: check names the line.
	v2 := filepath.Join(routines, "add-customer", "v2.js")
	prog, _ := os.ReadFile(v2)
	lines := strings.Split(string(prog), "\n")
	typo := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "select(") {
			lines[i], typo = "selekt("+strings.TrimPrefix(l, "select("), i+1
		}
	}
	if err := os.WriteFile(v2, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	p = must(t, exitFailed, "routine", "check", "add-customer", "--routines", routines)
	if want := "v2.js:" + itoa(typo) + ": selekt is not a function a routine has (did you mean select?)"; !strings.Contains(p.stdout.String(), want) {
		t.Errorf("routine check said:\n%s\nwant %s", p.stdout.String(), want)
	}
	if err := os.WriteFile(v2, prog, 0o644); err != nil {
		t.Fatal(err)
	}

	// run --routines: the model calls the routine as a tool.
	before = len(llm.Requests())
	must(t, exitOK, append(append(append([]string{"run", "--url", srv.URL + "/customers/new", "--routines", routines}, model...), secret...),
		routinesite.CustomerTask("Eve Gao", "eve@example.com", "Pro"))...)
	if n := len(llm.Requests()) - before; n != 2 {
		t.Errorf("run --routines: %d model calls, want 2 (the routine, done)", n)
	}
	if c := site.Customers(); len(c) != 4 || c[3].Name != "Eve Gao" {
		t.Errorf("customers %+v", c)
	}
	// Secrets by name only, in every file of the folder.
	filepath.Walk(routines, func(path string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			if b, _ := os.ReadFile(path); strings.Contains(string(b), routinesite.Password) {
				t.Errorf("%s holds the password", path)
			}
		}
		return nil
	})
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
