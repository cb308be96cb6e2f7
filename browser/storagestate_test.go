package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/browser/launcher"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

// TestSessionsLast: a localStorage counter and a cookie survive from one
// browser to the next with a saved storage state, 0600 and in Playwright's
// format. (A persistent profile across runs: cmd/webagent's
// TestSessionsLastAcrossRuns and TestKilledBrowserWithProfile.)
func TestSessionsLast(t *testing.T) {
	tier.Slow(t)
	base := serve(t, map[string]string{"/": counterPage})
	t.Run("storage state", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "state.json")
		if got := visit(t, base+"/", Options{SaveStorageState: file}); got != "ls=1 cookie=1" {
			t.Fatalf("first run: %s", got)
		}
		fi, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("state file mode %v, want 0600", fi.Mode().Perm())
		}
		st, err := ReadStorageState(file)
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Cookies) != 1 || st.Cookies[0].Name != "visits" || st.Cookies[0].Value != "1" || st.Cookies[0].Expires <= float64(time.Now().Unix()) ||
			len(st.Origins) != 1 || st.Origins[0].Origin != base || len(st.Origins[0].LocalStorage) != 1 || st.Origins[0].LocalStorage[0] != (NameValue{"visits", "1"}) {
			raw, _ := os.ReadFile(file)
			t.Fatalf("saved state:\n%s", raw)
		}
		if got := visit(t, base+"/", Options{StorageState: file, SaveStorageState: file}); got != "ls=2 cookie=2" {
			t.Fatalf("second run with the state: %s", got)
		}
		if st, err := ReadStorageState(file); err != nil || len(st.Cookies) != 1 || st.Cookies[0].Value != "2" || st.Origins[0].LocalStorage[0].Value != "2" {
			t.Fatalf("the state saved by the second run: %+v %v", st, err)
		}
	})
	// A persistent profile keeps both, the cookie too: the browser is
	// closed gracefully, and writes its cookies on the way out.
	t.Run("profile", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "profile")
		if got := visit(t, base+"/", Options{UserDataDir: dir}); got != "ls=1 cookie=1" {
			t.Fatalf("first run: %s", got)
		}
		if got := visit(t, base+"/", Options{UserDataDir: dir}); got != "ls=2 cookie=2" {
			t.Fatalf("second run with the profile: %s", got)
		}
	})
}

// TestBadSessionInput: a state that is not JSON, a locked profile and a
// viewport of 0x0 are configuration errors that say what is wrong.
func TestBadSessionInput(t *testing.T) {
	dir := t.TempDir()
	notJSON := filepath.Join(dir, "state.json")
	if err := os.WriteFile(notJSON, []byte("cookies: yes"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A browser that holds the profile: Chromium itself, outside webagent.
	locked := filepath.Join(dir, "locked")
	path, err := launcher.Find("")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, "--headless", "--no-sandbox", "--no-first-run", "--disable-gpu", "--user-data-dir="+locked, "--remote-debugging-port=0", "about:blank")
	// Its singleton socket folder, which a killed Chromium leaves, goes
	// into a folder of the test's own.
	cmd.Env = append(os.Environ(), "TMPDIR="+shortDir(t))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		launcher.KillUsing(locked)
		cmd.Process.Kill()
		cmd.Wait()
		launcher.KillLeftovers(locked)
	}()
	waitFor(t, "chromium's SingletonLock", 20*time.Second, func() bool {
		_, err := os.Lstat(filepath.Join(locked, "SingletonLock"))
		return err == nil
	})
	for _, c := range []struct {
		name string
		opts Options
		want string
	}{
		{"not json", Options{StorageState: notJSON}, "is not JSON"},
		{"missing state", Options{StorageState: filepath.Join(dir, "nope.json")}, "no such file"},
		{"locked profile", Options{UserDataDir: locked}, "is in use by"},
		{"zero viewport", Options{Width: 0, Height: 1}, "viewport 0x1 is out of range"},
		{"bad proxy", Options{Proxy: "ftp://u:hunter2@x:1"}, "not supported"},
		{"bad timezone", Options{Timezone: "Mars/Olympus"}, "not known"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			b, err := Launch(ctx, c.opts)
			if err == nil {
				b.Close()
				t.Fatal("launched")
			}
			var ce *ConfigError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "hunter2") {
				t.Errorf("got %T %v, want a ConfigError with %q", err, err, c.want)
			}
		})
	}
	if _, _, err := ParseViewport("0x0"); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("ParseViewport(0x0): %v", err)
	}
}

// counterPage counts its visits in localStorage and in a cookie that lasts
// a day, and shows both.
const counterPage = `<title>c</title><p id=o></p><script>
const n = Number(localStorage.getItem('visits') || 0) + 1; localStorage.setItem('visits', n);
const m = Number((document.cookie.match(/visits=(\d+)/) || [0, 0])[1]) + 1;
document.cookie = 'visits=' + m + '; max-age=86400; path=/';
document.getElementById('o').textContent = 'ls=' + n + ' cookie=' + m;</script>`

// visit opens the counter page in a new browser and says what it showed.
func visit(t *testing.T, url string, opts Options) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	opts.Logger = testLogger()
	b, err := Launch(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Do(ctx, contract.Action{Name: contract.ActGoto, URL: url}); err != nil {
		b.Close()
		t.Fatal(err)
	}
	v, err := b.Eval(ctx, `document.getElementById('o').textContent`)
	if err != nil {
		b.Close()
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(v)
}
