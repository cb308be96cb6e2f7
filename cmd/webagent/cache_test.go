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
	"github.com/webagent/webagent/testfixture/signin"
	"github.com/webagent/webagent/testfixture/tier"
)

// TestRunCache: webagent run --cache stores the first successful run and
// replays it; --var types another value; an entry of an older format is
// ignored with a warning and replaced; bad variables are exit 2.
func TestRunCache(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	members := signin.New()
	srv := httptest.NewServer(members)
	defer srv.Close()
	site := srv.URL + "/"
	users := func() []string { u, _ := members.State(); return u }
	llm, err := modelserver.Start(signin.Model())
	if err != nil {
		t.Fatal(err)
	}
	defer llm.Close()
	dir := filepath.Join(t.TempDir(), "cache")
	args := func(user string, extra ...string) []string {
		a := []string{"run", "--url", site, "--base-url", llm.BaseURL(), "--model", "m", "--secret", "pw=" + signin.Password,
			"--cache", dir, "--var", "user=" + user, "--json"}
		return append(append(a, extra...), signin.Task)
	}
	runCached := func(t *testing.T, user string) (*agent.Result, int, string) {
		t.Helper()
		before := len(llm.Requests())
		code, p := run(t, args(user)...)
		var res agent.Result
		if err := json.Unmarshal(p.stdout.Bytes(), &res); err != nil || code != exitOK {
			t.Fatalf("exit %d, %v; stdout %s\nstderr:\n%s", code, err, p.stdout.String(), p.stderr.String())
		}
		p.noChromeLeft(t)
		return &res, len(llm.Requests()) - before, p.stderr.String()
	}

	res, calls, stderr := runCached(t, "ann")
	if calls != 4 || res.Answer != "plan: Gold" || !strings.Contains(stderr, "cache: no stored run of this task; this run is stored in "+dir) {
		t.Fatalf("first run: %d model calls, answer %q; stderr:\n%s", calls, res.Answer, stderr)
	}
	res, calls, stderr = runCached(t, "ann")
	if calls != 0 || res.Answer != "plan: Gold" || res.Replay == nil || res.Replay.Steps != 4 || res.Replay.ModelCallsSaved != 4 ||
		!strings.Contains(stderr, "cache: 4 steps from the cache, 0 model calls made, 4 saved") {
		t.Fatalf("second run: %d model calls, %+v; stderr:\n%s", calls, res.Replay, stderr)
	}
	if _, calls, _ = runCached(t, "bob"); calls != 0 || strings.Join(users(), ",") != "ann,ann,bob" {
		t.Fatalf("--var user=bob: %d model calls, sign-ins %v", calls, users())
	}

	t.Run("an entry of an older format is ignored and replaced", func(t *testing.T) {
		entries, _ := filepath.Glob(filepath.Join(dir, "*", "entry.json"))
		if len(entries) != 1 {
			t.Fatalf("entries %v", entries)
		}
		b, _ := os.ReadFile(entries[0])
		if err := os.WriteFile(entries[0], []byte(strings.Replace(string(b), `"version": 1`, `"version": 0`, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		_, calls, stderr := runCached(t, "ann")
		if calls != 4 || !strings.Contains(stderr, "cache entry ignored") || !strings.Contains(stderr, "written by cache format 0") {
			t.Fatalf("%d model calls; stderr:\n%s", calls, stderr)
		}
		if b, _ := os.ReadFile(entries[0]); !strings.Contains(string(b), `"version": 1`) {
			t.Fatalf("the entry was not replaced:\n%s", b)
		}
	})

	t.Run("bad variables are exit 2", func(t *testing.T) {
		before := len(llm.Requests())
		for _, c := range []struct {
			args []string
			want string
		}{
			{args("ann", "--var", "plan=gold"), "--var: the variable plan is not used: write {{plan}}"},
			{[]string{"run", "--url", site, "--base-url", llm.BaseURL(), "--model", "m", "--var", "user=x", "--var", "user=y", "Sign in as {{user}}"}, "--var user is given twice"},
			{[]string{"run", "--url", site, "--base-url", llm.BaseURL(), "--model", "m", "--var", "1x=y", "Sign in as {{1x}}"}, "a name is letters, digits and _"},
			{[]string{"run", "--url", site, "--base-url", llm.BaseURL(), "--model", "m", "--cache", entriesFile(t), "sign in"}, "is a file, not a folder"},
		} {
			code, p := run(t, c.args...)
			if code != exitUsage || !strings.Contains(p.stderr.String(), c.want) {
				t.Errorf("%v: exit %d; stderr:\n%s\nwant %q", c.args[len(c.args)-3:], code, p.stderr.String(), c.want)
			}
		}
		if n := len(llm.Requests()); n != before {
			t.Errorf("bad input reached the model: %d requests", n-before)
		}
	})
}

// entriesFile is a file where a folder is expected.
func entriesFile(t *testing.T) string {
	f := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}
