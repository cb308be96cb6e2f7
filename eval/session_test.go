package eval

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webagent/webagent/eval/suite"
)

// A task file's storage_state reaches the task's browser: the page finds
// the cookie and the localStorage item the state file gives.
func TestTaskStorageState(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<title>s</title><p id=o></p><script>document.getElementById('o').textContent = 'ls=' + localStorage.getItem('k') + ' ck=' + document.cookie</script>`)
	}))
	defer site.Close()
	dir := t.TempDir()
	host := strings.TrimPrefix(site.URL, "http://")
	host = host[:strings.LastIndex(host, ":")]
	state := fmt.Sprintf(`{"cookies": [{"name": "c", "value": "1", "domain": %q, "path": "/", "expires": -1, "httpOnly": false, "secure": false, "sameSite": "Lax"}],
		"origins": [{"origin": %q, "localStorage": [{"name": "k", "value": "v"}]}]}`, host, site.URL)
	if err := os.WriteFile(filepath.Join(dir, "state.json"), []byte(state), 0o600); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "tasks.yaml")
	src := fmt.Sprintf("id: with-state\nurl: %s/\ninstruction: Read the page.\nstorage_state: state.json\nchecks:\n  - element_text: {selector: \"#o\", equals: \"ls=v ck=c=1\"}\nreference: |\n  done \"read\"\n", site.URL)
	if err := os.WriteFile(file, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	tasks, err := suite.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	rep := NewRunner(testConfig(t)).Run(context.Background(), TaskJobs(tasks))
	if len(rep.Runs) != 1 || !rep.Runs[0].Success {
		t.Fatalf("runs %+v", rep.Runs)
	}
}
