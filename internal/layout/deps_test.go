package layout

import (
	"os/exec"
	"strings"
	"testing"
)

// goList runs go list in the repository with args and returns its lines.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*exec.ExitError); ok {
			msg += "\n" + string(ee.Stderr)
		}
		t.Fatalf("go list %s: %s", strings.Join(args, " "), msg)
	}
	return strings.Fields(string(out))
}

// TestMCPServerWithoutTemporal: embedding the MCP server links no
// Temporal. mcpserver reaches a fleet through its own RemoteTasks; the
// Temporal side is the command's (cmd/webagent/mcpfleet.go).
func TestMCPServerWithoutTemporal(t *testing.T) {
	t.Parallel()
	for _, dep := range goList(t, "-deps", "./mcpserver") {
		if strings.HasPrefix(dep, "go.temporal.io/") || dep == "github.com/webagent/webagent/fleet" {
			t.Errorf("mcpserver depends on %s: reach the fleet through mcpserver.RemoteTasks, implemented by the command", dep)
		}
	}
}
