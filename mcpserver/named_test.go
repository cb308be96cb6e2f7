package mcpserver_test

import (
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/mcpserver"
	"github.com/webagent/webagent/session"
	"github.com/webagent/webagent/testfixture/tier"
)

// A browser tool call that names a session acts in the webagent browser
// session of that name: its browser outlives the MCP connection (a second
// client finds the page), the CLI's protocol sees what the tools did and
// the other way round, a session that idled out is said to have ended,
// and the call after starts a new one.
func TestNamedSession(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	url := site(t)
	dir := t.TempDir()
	allowed, err := contract.ParseDomainPatterns("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	s := mcpserver.New(mcpserver.Config{
		Policy: contract.NavigationPolicy{Allowed: allowed}, SessionDir: dir, SessionIdleTimeout: 3 * time.Second,
		Limits: agent.Limits{OperationTimeout: backstop},
	})
	t.Cleanup(func() { _ = s.Close() })

	cs, served1 := stdio(t, s, nil)
	if res, out := call(t, cs, "browser_navigate", map[string]any{"url": url, "session": "work"}); res.IsError || !strings.Contains(out, `button "Count"`) {
		t.Fatalf("navigate in a named session: %s", out)
	}
	// The CLI's side: the same session, the same tab.
	cli := &session.Client{Name: "work", Dir: dir}
	r, err := cli.Do(ctx(t), session.Request{Command: "snapshot"})
	if err != nil || r.Status != session.OK || !strings.Contains(r.Text, "Title: Counter") {
		t.Fatalf("the CLI's snapshot of the session: %+v, %v", r, err)
	}
	ref := strings.TrimSuffix(strings.SplitN(strings.SplitN(r.Text, `button "Count" [ref=`, 2)[1], "]", 2)[0], "]")
	if r, err := cli.Do(ctx(t), session.Request{Command: contract.ActClick, Args: map[string]any{"ref": ref}}); err != nil || r.Status != session.OK {
		t.Fatalf("the CLI's click: %+v, %v", r, err)
	}
	_ = cs.Close()
	<-served1

	// Another connection, as a stateless client's next call is.
	cs2, served := stdio(t, s, nil)
	defer func() {
		_ = cs2.Close()
		<-served
	}()
	if res, out := call(t, cs2, "browser_snapshot", map[string]any{"session": "work"}); res.IsError || !strings.Contains(out, "1") || !strings.Contains(out, "Counter") {
		t.Errorf("the next connection's snapshot: %s", out)
	}
	if res, out := call(t, cs2, "browser_click", map[string]any{"ref": "e1", "session": "../x"}); !res.IsError || !strings.Contains(out, "session name") {
		t.Errorf("a bad session name: %s", out)
	}

	// Idle for its timeout: it ends, and the next call says so.
	waitGone(t, dir+"/work.sock", 3*time.Second+10*time.Second)
	if res, out := call(t, cs2, "browser_snapshot", map[string]any{"session": "work"}); !res.IsError || !strings.Contains(out, "has ended") {
		t.Errorf("a call naming the ended session: %s", out)
	}
	if res, out := call(t, cs2, "browser_snapshot", map[string]any{"session": "work"}); res.IsError || !strings.Contains(out, "about:blank") {
		t.Errorf("the call after starts a new session: %s", out)
	}
}

// waitGone waits for a file to be removed.
func waitGone(t *testing.T, path string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		if _, err := os.Stat(path); err != nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still there after %s", path, within)
		}
		<-tick.C
	}
}

// Over HTTP, a client of the 2026-07-28 protocol (stateless: no MCP
// session) and one of 2025-11-25 (an MCP session with its browser) both
// list the tools and keep their page across calls.
func TestBothProtocolGenerations(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	url := site(t)
	allowed, err := contract.ParseDomainPatterns("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	s := mcpserver.New(mcpserver.Config{
		Policy: contract.NavigationPolicy{Allowed: allowed}, SessionDir: t.TempDir(),
		Limits: agent.Limits{OperationTimeout: backstop},
	})
	t.Cleanup(func() { _ = s.Close() })
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			hs := httptest.NewServer(s.Handler())
			defer hs.Close()
			c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
			cs, err := c.Connect(ctx(t), &mcp.StreamableClientTransport{Endpoint: hs.URL}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if got := cs.InitializeResult().ProtocolVersion; got != version {
				t.Errorf("negotiated %s", got)
			}
			tools, err := cs.ListTools(ctx(t), nil)
			if err != nil || len(tools.Tools) < 10 {
				t.Fatalf("tools: %v", err)
			}
			if res, out := call(t, cs, "browser_navigate", map[string]any{"url": url}); res.IsError {
				t.Fatalf("navigate: %s", out)
			}
			if res, out := call(t, cs, "browser_snapshot", map[string]any{}); res.IsError || !strings.Contains(out, `button "Count"`) {
				t.Errorf("the next call's snapshot lost the page: %s", out)
			}
		})
	}
}
