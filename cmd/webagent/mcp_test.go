package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent/webagent/modelserver"
)

// An MCP client starts `webagent mcp` on stdio, opens a page and clicks on
// it; when the client closes stdin, the server exits at once and its
// Chromium is gone.
//
// Under go test -short it is the MCP door's one real-browser run (package
// tier): keep it under 2 s, and never call tier.Slow here.
func TestMCPStdio(t *testing.T) {
	t.Parallel()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `<!doctype html><title>Hello</title><button onclick="this.textContent='Thanks'">Press</button>`)
	}))
	defer page.Close()
	p := &proc{tmp: t.TempDir()}
	cmd := exec.Command(bin, "mcp", "--allowed-domains", "127.0.0.1")
	cmd.Env = append(os.Environ(), "TMPDIR="+p.tmp)
	cmd.Stderr = &p.stderr
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := func(name string, args map[string]any) string {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	out := text("browser_navigate", map[string]any{"url": page.URL})
	ref, ok := modelserver.FindRef(out, "button", "Press")
	if !ok {
		t.Fatalf("navigate: %s", out)
	}
	if out := text("browser_click", map[string]any{"ref": ref}); !strings.Contains(out, `button "Thanks"`) {
		t.Errorf("click: %s", out)
	}
	start := time.Now()
	if err := cs.Close(); err != nil {
		t.Errorf("closing the session: %v", err)
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
		t.Errorf("the server did not exit 0 when stdin closed: %v\n%s", cmd.ProcessState, p.stderr.String())
	}
	if took := time.Since(start); took > 4*time.Second {
		t.Errorf("the server took %s to exit after stdin closed", took)
	}
	p.noChromeLeft(t)
}

// Bad input to mcp is exit 2 with what is wrong.
func TestMCPUsage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "--port", "70000"}, "--port is 70000"},
		{[]string{"mcp", "extra"}, "mcp takes no arguments"},
		{[]string{"mcp", "--allowed-domains", "exa mple.com"}, "--allowed-domains"},
		{[]string{"mcp", "--temporal", "127.0.0.1:1", "--confirm", "purchases"}, "do not reach run_task's runs on the fleet"},
	} {
		code, p := run(t, c.args...)
		if code != exitUsage || !strings.Contains(p.stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, p.stderr.String())
		}
	}
}
