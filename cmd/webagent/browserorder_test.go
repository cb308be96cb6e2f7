package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/webagent/webagent/testfixture/tier"
)

// webagent browser takes its flags before the command's name as after it,
// in a real session; a command refuses the flags it does not read.
func TestBrowserFlagsBeforeCommand(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Order</title><p>flags first</p><button>Go</button>`)
	}))
	t.Cleanup(site.Close)
	s := newBrowserSession(t)
	named := s.env
	t.Cleanup(func() { s.env = named })                      // before the session's own clean-up, which closes it by name
	s.env = append(slices.Clone(named), "WEBAGENT_SESSION=") // only the flags name it
	s.must(t, "--session", s.name, "--allow-private-network", "open", site.URL)
	if out := s.must(t, "--session", s.name, "snapshot"); !strings.Contains(out, "flags first") {
		t.Errorf("snapshot with --session before it:\n%s", out)
	}
	if out := s.must(t, "snapshot", "--session", s.name); !strings.Contains(out, "flags first") {
		t.Errorf("snapshot with --session after it:\n%s", out)
	}
	if out := s.must(t, "--json", "--session="+s.name, "status"); !strings.Contains(out, `"ok":true`) {
		t.Errorf("status with --json and --session= before it:\n%s", out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--session", s.name}, "no command given"},
		{[]string{"status", "--chrome", "/bin/true"}, "unknown flag --chrome"},
		{[]string{"--session", s.name, "close", "--headful"}, "unknown flag --headful"},
		{[]string{"snapshot", "--max-iterations", "3"}, "unknown flag --max-iterations"},
		{[]string{"--vision", "snapshot"}, "unknown flag --vision"},
		{[]string{"click", "e1", "--trace", t.TempDir()}, "unknown flag --trace"},
		{[]string{"sessions", "--session", s.name}, "unknown flag --session"},
	} {
		code, out, errOut, _ := s.cmd(t, c.args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("browser %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", strings.Join(c.args, " "), code, out, errOut, c.want)
		}
	}
}
