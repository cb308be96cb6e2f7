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

// module is the module's path, the prefix of every package of ours.
const module = "github.com/webagent/webagent/"

// imports maps each package of ours, by its folder, to the packages of
// ours its product files import (tests aside), by their folders.
func imports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, line := range strings.Split(strings.Join(goList(t, "-f", "{{.ImportPath}}:{{join .Imports \",\"}}", "./..."), "\n"), "\n") {
		pkg, deps, _ := strings.Cut(line, ":")
		dir := strings.TrimPrefix(pkg, module)
		out[dir] = nil
		for d := range strings.SplitSeq(deps, ",") {
			if strings.HasPrefix(d, module) {
				out[dir] = append(out[dir], strings.TrimPrefix(d, module))
			}
		}
	}
	return out
}

// TestNoUpwardImports: internal/ is the ground floor, the product's helpers
// that every level uses (the snapshot grammar, "did you mean", YAML files,
// network errors, the navigation guard and its egress): of ours they import
// only contract and each other, so that no import runs up into internal/.
// The eval's own code (eval/...) is used by the eval's level alone (eval,
// fleet's eval runs, the command), and the tests' fixtures (testfixture/)
// by no product package.
func TestNoUpwardImports(t *testing.T) {
	t.Parallel()
	for pkg, deps := range imports(t) {
		for _, d := range deps {
			switch {
			case strings.HasPrefix(pkg, "internal/") && d != "contract" && !strings.HasPrefix(d, "internal/"):
				t.Errorf("%s imports %s: internal/ is the ground floor, importing of ours only contract and internal/; "+
					"code that needs %s belongs above, under eval/ or testfixture/", pkg, d, d)
			case strings.HasPrefix(d, "eval/") && !evalLevel(pkg):
				t.Errorf("%s imports %s: the eval's code is for eval, fleet and cmd/webagent alone", pkg, d)
			case strings.HasPrefix(d, "testfixture") && !strings.HasPrefix(pkg, "testfixture"):
				t.Errorf("%s imports %s: a test fixture is used by tests, never by the product", pkg, d)
			}
		}
	}
}

// evalLevel reports whether pkg may use the eval's code.
func evalLevel(pkg string) bool {
	return pkg == "eval" || strings.HasPrefix(pkg, "eval/") || pkg == "fleet" || strings.HasPrefix(pkg, "cmd/")
}
