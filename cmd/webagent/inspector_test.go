package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/webagent/webagent/testfixture/tier"
)

// inspectorCLI is the official MCP Inspector, as setup.sh installs it
// ($MCP_INSPECTOR names another).
func inspectorCLI(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("MCP_INSPECTOR"); p != "" {
		return p
	}
	p, err := filepath.Abs("../../.tools/mcp-inspector/node_modules/.bin/mcp-inspector")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		if _, npm := exec.LookPath("npm"); npm != nil {
			t.Skip("no npm on this machine: the MCP Inspector cannot be installed")
		}
		t.Fatalf("the MCP Inspector CLI is not installed (%v): run ./setup.sh, which installs it into .tools", err)
	}
	return p
}

// inspect runs the Inspector's CLI with args and returns what it printed.
func inspect(t *testing.T, cli string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, cli, append([]string{"--cli"}, args...)...)
	cmd.Env = append(cleanEnv(), "TMPDIR="+t.TempDir())
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("inspector %v: %v\n%s%s", args, err, out, stderr)
	}
	return string(out)
}

// toolText is the text of a tools/call answer the Inspector printed.
func toolText(t *testing.T, out string) string {
	t.Helper()
	var res struct {
		Content []struct{ Text string }
		IsError bool
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Content) == 0 || res.IsError {
		t.Fatalf("not a successful tool result (%v): %s", err, out)
	}
	return res.Content[0].Text
}

// TestMCPInspector: the official MCP Inspector's CLI lists webagent mcp's
// tools and calls them, over stdio and over HTTP, where a named session
// keeps the page from one of its runs to the next.
func TestMCPInspector(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	cli := inspectorCLI(t)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<title>Inspected</title><button>Order the blue mug</button>`)
	}))
	t.Cleanup(site.Close)
	stdio := []string{bin, "mcp", "--allowed-domains", "127.0.0.1"}

	var list struct{ Tools []struct{ Name string } }
	if err := json.Unmarshal([]byte(inspect(t, cli, append(stdio, "--method", "tools/list")...)), &list); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tool := range list.Tools {
		names[tool.Name] = true
	}
	for _, want := range []string{"browser_navigate", "browser_snapshot", "browser_click", "run_task"} {
		if !names[want] {
			t.Errorf("tools/list lacks %s: %v", want, names)
		}
	}
	out := toolText(t, inspect(t, cli, append(stdio, "--method", "tools/call", "--tool-name", "browser_navigate", "--tool-arg", "url="+site.URL+"/")...))
	if !strings.Contains(out, `navigated to `+site.URL) || !strings.Contains(out, `button "Order the blue mug"`) {
		t.Errorf("browser_navigate over stdio: %s", out)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	srv := startLogged(t, "mcp", "--port", port, "--allowed-domains", "127.0.0.1")
	until(t, "the MCP server listens", time.Minute, func() bool { return strings.Contains(srv.text(), "MCP over streamable HTTP") })
	url := "http://127.0.0.1:" + port + "/mcp"
	session := fmt.Sprintf("inspector-%d", time.Now().UnixNano())
	toolText(t, inspect(t, cli, url, "--method", "tools/call", "--tool-name", "browser_navigate", "--tool-arg", "url="+site.URL+"/", "session="+session))
	out = toolText(t, inspect(t, cli, url, "--method", "tools/call", "--tool-name", "browser_snapshot", "--tool-arg", "session="+session))
	if !strings.Contains(out, "Title: Inspected") || !strings.Contains(out, `button "Order the blue mug"`) {
		t.Errorf("the named session lost its page between two runs of the Inspector: %s", out)
	}
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	srv.exit(t, 15*time.Second)
}
