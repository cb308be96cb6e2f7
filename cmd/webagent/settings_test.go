package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/tier"
)

// reporter is a scripted model that reads "report: …" off the page and
// answers it with done.
func reporter(t *testing.T) *modelserver.Server {
	t.Helper()
	re := regexp.MustCompile(`report: ([^<\n]+)`)
	srv, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		m := re.FindStringSubmatch(req.LastUser())
		if m == nil {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("fail", map[string]any{"reason": "no report on the page"})}}
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": strings.TrimSpace(m[1])})}}
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

func servePage(t *testing.T, html string) string {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, html)
	}))
	t.Cleanup(s.Close)
	return s.URL + "/"
}

func answerOf(t *testing.T, code int, p *proc) string {
	t.Helper()
	var res struct{ Code, Answer string }
	if err := json.Unmarshal(p.stdout.Bytes(), &res); err != nil || code != exitOK {
		t.Fatalf("exit %d, stdout %q (%v); stderr:\n%s", code, p.stdout.String(), err, p.stderr.String())
	}
	return res.Answer
}

// The page sees the user agent and viewport; a config file sets them, a
// flag overrides the file, and the file overrides the environment.
func TestBrowserSettingsFromConfigAndFlags(t *testing.T) {
	t.Parallel()
	url := servePage(t, `<title>t</title><p id=o></p><script>document.getElementById('o').textContent =
		'report: ua=' + navigator.userAgent + ' vp=' + innerWidth + 'x' + innerHeight + ' tz=' + Intl.DateTimeFormat().resolvedOptions().timeZone</script>`)
	model := reporter(t)
	cfg := filepath.Join(t.TempDir(), "webagent.yaml")
	if err := os.WriteFile(cfg, []byte("user-agent: cfg-agent/1.0\nviewport: 1024x700\nbase-url: "+model.BaseURL()+"\nmodel: m\njson: true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startEnv(t, []string{"WEBAGENT_USER_AGENT=env-agent/1.0", "WEBAGENT_TIMEZONE=Asia/Tokyo"},
		"run", "--config", cfg, "--viewport", "800x600", "--url", url, "report the page")
	code := p.wait(t, 2*time.Minute)
	if got := answerOf(t, code, p); got != "ua=cfg-agent/1.0 vp=800x600 tz=Asia/Tokyo" {
		t.Errorf("the page saw %q", got)
	}
	p.noChromeLeft(t)
}

// A schema's answer: refused once, then accepted; --json shows the object.
func TestSchemaAnswerOnTheCommandLine(t *testing.T) {
	t.Parallel()
	url := servePage(t, `<title>o</title><h1>Order SO-7</h1>`)
	srv, err := modelserver.Start(modelserver.Script(
		modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": map[string]any{"order": 7}})}},
		modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": map[string]any{"order": "SO-7"}})}},
	))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	schema := filepath.Join(t.TempDir(), "order.json")
	if err := os.WriteFile(schema, []byte(`{"type": "object", "properties": {"order": {"type": "string"}}, "required": ["order"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, p := run(t, "run", "--json", "--schema", schema, "--url", url, "--base-url", srv.BaseURL(), "--model", "m", "the order number")
	var res struct {
		Code       string
		Iterations int
		Answer     map[string]string
	}
	if err := json.Unmarshal(p.stdout.Bytes(), &res); err != nil || code != exitOK || res.Answer["order"] != "SO-7" || res.Iterations != 2 {
		t.Fatalf("exit %d, %q (%v); stderr:\n%s", code, p.stdout.String(), err, p.stderr.String())
	}
	if tool := srv.Requests()[1].Req.LastTool(); !strings.Contains(tool, "does not match the schema") {
		t.Errorf("the refusal told the model %q", tool)
	}
}

// A localStorage counter and a cookie last from run to run, with a
// profile and with a saved storage state.
func TestSessionsLastAcrossRuns(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	url := servePage(t, `<title>c</title><p id=o></p><script>
const n = Number(localStorage.getItem('visits') || 0) + 1; localStorage.setItem('visits', n);
const m = Number((document.cookie.match(/visits=(\d+)/) || [0, 0])[1]) + 1;
document.cookie = 'visits=' + m + '; max-age=86400; path=/';
document.getElementById('o').textContent = 'report: ls=' + n + ' cookie=' + m;</script>`)
	model := reporter(t)
	dir := t.TempDir()
	profile, state := filepath.Join(dir, "profile"), filepath.Join(dir, "state.json")
	args := func(extra ...string) []string {
		return append([]string{"run", "--json", "--url", url, "--base-url", model.BaseURL(), "--model", "m"}, append(extra, "count")...)
	}
	code, p := run(t, args("--user-data-dir", profile, "--save-storage-state", state)...)
	if got := answerOf(t, code, p); got != "ls=1 cookie=1" {
		t.Fatalf("first run: %q", got)
	}
	if fi, err := os.Stat(state); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("state file: %v %v", fi, err)
	}
	code, p = run(t, args("--storage-state", state)...)
	if got := answerOf(t, code, p); got != "ls=2 cookie=2" {
		t.Errorf("with the saved state: %q", got)
	}
	code, p = run(t, args("--user-data-dir", profile)...)
	if got := answerOf(t, code, p); got != "ls=2 cookie=2" {
		t.Errorf("with the profile: %q", got)
	}
	if _, err := os.Stat(filepath.Join(profile, "Default")); err != nil {
		t.Errorf("the profile was not kept: %v", err)
	}
	p.noChromeLeft(t)
}

// Bad settings, schemas, states, profiles and config files: exit 2 with one
// line that says what is wrong; no password in it.
func TestSettingsUsageErrors(t *testing.T) {
	t.Parallel()
	model := reporter(t)
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	badSchema := write("bad-schema.json", `{"type": "objekt"}`)
	notJSON := write("state.json", "cookies: yes")
	typo := write("typo.yaml", "user-agnet: x\n")
	badValue := write("bad-value.yaml", "model: m\niteration-timeout: soon\n")
	// A profile whose SingletonLock names a live process of this machine
	// (this test), as Chromium's does while it runs.
	locked := filepath.Join(dir, "locked")
	host, _ := os.Hostname()
	if err := os.MkdirAll(locked, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(fmt.Sprintf("%s-%d", host, os.Getpid()), filepath.Join(locked, "SingletonLock")); err != nil {
		t.Fatal(err)
	}
	m := []string{"--url", "https://example.org", "--base-url", model.BaseURL(), "--model", "m"}
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"invalid schema", []string{"--schema", badSchema}, []string{"--schema", `type "objekt"`}},
		{"state not json", []string{"--storage-state", notJSON}, []string{"--storage-state", "is not JSON"}},
		{"locked profile", []string{"--user-data-dir", locked}, []string{"is in use", "close that browser first"}},
		{"zero viewport", []string{"--viewport", "0x0"}, []string{"--viewport", "0x0 is out of range"}},
		{"viewport not WxH", []string{"--viewport", "big"}, []string{"--viewport", "WIDTHxHEIGHT"}},
		{"bad proxy", []string{"--proxy", "ftp://ann:hunter22@proxy:21"}, []string{"--proxy", "not supported"}},
		{"bad header", []string{"--extra-header", "Authorization=Bearer hunter22"}, []string{"Name: value"}},
		{"bad timezone", []string{"--timezone", "Mars/Base"}, []string{"--timezone", "not known"}},
		{"config typo", []string{"--config", typo}, []string{"unknown key \"user-agnet\"", "did you mean user-agent?", "line 1"}},
		{"config bad value", []string{"--config", badValue}, []string{"line 2", `--iteration-timeout "soon" is not a duration`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, p := run(t, append(append([]string{"run"}, m...), append(c.args, "task")...)...)
			msg := p.stderr.String()
			if code != exitUsage {
				t.Fatalf("exit %d, want 2; stderr:\n%s", code, msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("stderr lacks %q:\n%s", w, msg)
				}
			}
			if strings.Count(strings.TrimSpace(msg), "\n") > 0 || strings.Contains(msg, "hunter22") {
				t.Errorf("want one line without the password, got:\n%s", msg)
			}
			p.noChromeLeft(t)
		})
	}
}
