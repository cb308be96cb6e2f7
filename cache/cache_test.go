package cache_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/webagent/webagent/cache"
)

// TestOpen: a cache is a folder, made when missing; a file is refused; the
// working folder of a run killed long ago is removed, a recent one kept.
func TestOpen(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "runs")
	if _, err := cache.Open(dir, nil); err != nil {
		t.Fatal(err)
	}
	old, recent := filepath.Join(dir, ".run-1"), filepath.Join(dir, ".run-2")
	for _, d := range []string{old, recent} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-48 * time.Hour)
	if err := os.Chtimes(old, long, long); err != nil {
		t.Fatal(err)
	}
	if _, err := cache.Open(dir, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("the stale working folder is still there: %v", err)
	}
	if _, err := os.Stat(recent); err != nil {
		t.Errorf("a recent working folder was removed: %v", err)
	}
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := cache.Open(file, nil); err == nil {
		t.Error("a file was taken for a cache folder")
	}
}

// TestExpand: every variable must be used and every {{name}} given.
func TestExpand(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		vars map[string]string
		want string
	}{
		{map[string]string{"user": "bob"}, ""},
		{map[string]string{"user": "bob", "plan": "x"}, "the variable plan is not used: write {{plan}} in the task (or its start URL) where its value goes"},
		{map[string]string{"user": "bob", "1x": "y"}, `the variable name "1x": a name is letters, digits and _, not starting with a digit (user, order_id)`},
		{map[string]string{"plan": "x"}, "the task uses {{user}} but no value is given for user"},
	} {
		out, err := cache.Expand(c.vars, "Sign in as {{ user }}", "https://example.org/{{user}}")
		switch {
		case c.want == "" && (err != nil || out[0] != "Sign in as bob" || out[1] != "https://example.org/bob"):
			t.Errorf("%v: %q, %v", c.vars, out, err)
		case c.want != "" && (err == nil || err.Error() != c.want):
			t.Errorf("%v: %v, want %q", c.vars, err, c.want)
		}
	}
}
