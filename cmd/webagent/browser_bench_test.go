package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// BenchmarkBrowserCommands times webagent browser commands as a coding
// agent runs them: a whole process per command against a running session,
// on a small static form. status is a command's own cost (process start
// and the round trip, no page work). With $AGENT_BROWSER set to
// agent-browser's binary (npm agent-browser, its bin/agent-browser-linux-x64),
// the same commands of agent-browser run in the same benchmark:
//
//	AGENT_BROWSER=$PWD/node_modules/agent-browser/bin/agent-browser-linux-x64 \
//	  go test ./cmd/webagent -run '^$' -bench BrowserCommands -benchtime 30x
func BenchmarkBrowserCommands(b *testing.B) {
	base, host := sitePages(b, map[string]string{"/": `<title>Form</title><h1>Sign in</h1>
<input aria-label="User"><input type=password aria-label="Password"><button onclick="this.textContent='Sent'">Sign in</button>`})
	s := &bsess{tmp: b.TempDir(), name: "bench"}
	s.env = []string{"TMPDIR=" + s.tmp, "XDG_RUNTIME_DIR=" + b.TempDir(), "WEBAGENT_SESSION=bench"}
	run := func(b *testing.B, env []string, name string, args ...string) string {
		cmd := exec.Command(name, args...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run(b, s.env, bin, "browser", "open", base+"/", "--allowed-domains", host)
	pid := s.pid()
	b.Cleanup(func() {
		run(b, s.env, bin, "browser", "close")
		waitExit(b, pid, 15*time.Second)
	})
	snap := run(b, s.env, bin, "browser", "snapshot")
	user, button := refOfLine(b, snap, `textbox "User"`), refOfLine(b, snap, `button "Sign in"`)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"status", []string{"status"}},
		{"snapshot", []string{"snapshot"}},
		{"type", []string{"type", user, "alice"}},
		{"click", []string{"click", button}},
	} {
		b.Run("webagent/"+c.name, func(b *testing.B) {
			for b.Loop() {
				run(b, s.env, bin, append([]string{"browser"}, c.args...)...)
			}
		})
	}
	ab := os.Getenv("AGENT_BROWSER")
	if ab == "" {
		return
	}
	env := []string{"AGENT_BROWSER_EXECUTABLE_PATH=/usr/bin/chromium", "AGENT_BROWSER_ARGS=--no-sandbox", "AGENT_BROWSER_SESSION=webagent-bench"}
	run(b, env, ab, "open", base+"/")
	b.Cleanup(func() { run(b, env, ab, "close") })
	snap = run(b, env, ab, "snapshot")
	user, button = "@"+refOfLine(b, snap, `textbox "User"`), "@"+refOfLine(b, snap, `button "Sign in"`)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"snapshot", []string{"snapshot"}},
		{"type", []string{"fill", user, "alice"}},
		{"click", []string{"click", button}},
	} {
		b.Run("agent-browser/"+c.name, func(b *testing.B) {
			for b.Loop() {
				run(b, env, ab, c.args...)
			}
		})
	}
}

// refOfLine finds the ref on the line of a snapshot that names what
// (webagent's [ref=e1] or agent-browser's [..., ref=e1]).
func refOfLine(b *testing.B, snap, what string) string {
	for line := range strings.Lines(snap) {
		if strings.Contains(line, what) {
			if _, after, ok := strings.Cut(line, "ref="); ok {
				return strings.TrimRight(strings.Fields(after)[0], "],")
			}
		}
	}
	b.Fatalf("no %s in:\n%s", what, snap)
	return ""
}
