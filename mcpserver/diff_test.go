package mcpserver_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/mcpserver"
	"github.com/webagent/webagent/testfixture/tier"
)

// browser_snapshot with diff gives what changed since the caller's last
// snapshot of the page (an action's answer holds one), in a browser of the
// connection's own and in a named session; without diff, the whole page.
func TestSnapshotDiff(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	var rows strings.Builder
	for i := range 40 {
		fmt.Fprintf(&rows, "<li>Row %d of the table</li>", i)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, `<!doctype html><title>Rows</title><ul>`+rows.String()+`</ul>
<button onclick="this.insertAdjacentHTML('afterend','<p>Added.</p>')">Add</button>`)
	}))
	t.Cleanup(srv.Close)
	allowed, err := contract.ParseDomainPatterns("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	s := mcpserver.New(mcpserver.Config{
		Policy: contract.NavigationPolicy{Allowed: allowed}, SessionDir: t.TempDir(), SessionIdleTimeout: time.Minute,
	})
	t.Cleanup(func() { _ = s.Close() })
	for _, name := range []string{"", "diffs"} {
		t.Run("session="+name, func(t *testing.T) {
			cs, served := stdio(t, s, nil)
			defer func() {
				_ = cs.Close()
				<-served
			}()
			with := func(args map[string]any) map[string]any {
				if name != "" {
					args["session"] = name
				}
				return args
			}
			if res, out := call(t, cs, "browser_navigate", with(map[string]any{"url": srv.URL + "/"})); res.IsError || !strings.Contains(out, "Row 7 of") {
				t.Fatalf("navigate: %s", out)
			}
			if res, out := call(t, cs, "browser_snapshot", with(map[string]any{"diff": true})); res.IsError ||
				!strings.Contains(out, "Changes since the previous observation") || strings.Contains(out, "Row 7 of") {
				t.Errorf("browser_snapshot with diff on the same page: %s", out)
			}
			if res, out := call(t, cs, "browser_snapshot", with(map[string]any{})); res.IsError || !strings.Contains(out, "Row 7 of") {
				t.Errorf("browser_snapshot without diff: %s", out)
			}
		})
	}
}
