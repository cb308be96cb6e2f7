package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/internal/outline"
	"github.com/webagent/webagent/modelserver"
)

// signInSite is a sign-in form and the member's page; users lists who
// signed in.
func signInSite(t *testing.T) (string, func() []string) {
	var mu sync.Mutex
	var users []string
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/login":
			if r.FormValue("pw") != "pa55" {
				http.Error(w, "wrong password", http.StatusForbidden)
				return
			}
			mu.Lock()
			users = append(users, r.FormValue("user"))
			mu.Unlock()
			http.SetCookie(w, &http.Cookie{Name: "user", Value: r.FormValue("user"), Path: "/"})
			http.Redirect(w, r, "/home", http.StatusSeeOther)
		case "/home":
			c, _ := r.Cookie("user")
			fmt.Fprintf(w, `<title>Home</title><h1>Welcome</h1><p>Signed in as %s. Your plan: Gold</p>`, c.Value)
		default:
			fmt.Fprint(w, `<title>Members</title><form method="post" action="/login"><label>Username <input name="user"></label>
<label>Password <input name="pw" type="password"></label><button>Sign in</button></form>`)
		}
	}))
	t.Cleanup(s.Close)
	return s.URL + "/", func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), users...) }
}

// signInModel types the user named in the task, then the password, signs
// in and reads the plan: one call a turn.
func signInModel() modelserver.Responder {
	return modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		obs := req.LastUser()
		call := func(name string, args map[string]any) modelserver.Turn {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall(name, args)}}
		}
		if strings.Contains(obs, "Your plan:") {
			return call("done", map[string]any{"answer": "plan: Gold"})
		}
		user := ""
		for _, m := range req.Messages {
			if rest, ok := strings.CutPrefix(m.Content, "Task: sign in as "); ok {
				user = strings.Fields(rest)[0]
			}
		}
		for _, l := range outline.Parse(obs) {
			if l.Role == "textbox" && !strings.Contains(l.Text, "value=") {
				text := user
				if l.Name == "Password" {
					text = "<secret>pw</secret>"
				}
				return call("type", map[string]any{"ref": l.Ref, "text": text})
			}
		}
		ref, _ := outline.FindRef(obs, "button", "Sign in")
		return call("click", map[string]any{"ref": ref})
	})
}

// TestRunCache: webagent run --cache stores the first successful run and
// replays it; --var types another value; an entry of an older format is
// ignored with a warning and replaced; bad variables are exit 2.
func TestRunCache(t *testing.T) {
	site, users := signInSite(t)
	llm, err := modelserver.Start(signInModel())
	if err != nil {
		t.Fatal(err)
	}
	defer llm.Close()
	dir := filepath.Join(t.TempDir(), "cache")
	args := func(user string, extra ...string) []string {
		a := []string{"run", "--url", site, "--base-url", llm.BaseURL(), "--model", "m", "--secret", "pw=pa55",
			"--cache", dir, "--var", "user=" + user, "--json"}
		return append(append(a, extra...), "sign in as {{user}} with <secret>pw</secret> and tell me my plan")
	}
	runCached := func(t *testing.T, user string) (*agent.Result, int, string) {
		t.Helper()
		before := len(llm.Requests())
		code, p := run(t, args(user)...)
		var res agent.Result
		if err := json.Unmarshal(p.stdout.Bytes(), &res); err != nil || code != exitOK {
			t.Fatalf("exit %d, %v; stdout %s\nstderr:\n%s", code, err, p.stdout.String(), p.stderr.String())
		}
		if left := p.left(); len(left) > 0 {
			t.Errorf("left behind: %v", left)
		}
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
			{args("ann", "--var", "plan=gold"), "--var plan: the task does not use it; write {{plan}}"},
			{[]string{"run", "--url", site, "--base-url", llm.BaseURL(), "--model", "m", "--var", "user=x", "--var", "user=y", "sign in as {{user}}"}, "--var user is given twice"},
			{[]string{"run", "--url", site, "--base-url", llm.BaseURL(), "--model", "m", "--var", "1x=y", "sign in as {{1x}}"}, "a name is letters, digits and _"},
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
