package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/webagent/webagent/modelserver"
)

// TestPolicyFileErrors: a mistake in --policy or --confirm is exit 2 with
// the file, the line and what to write instead, before anything runs: no
// request reaches the model server and no browser starts.
func TestPolicyFileErrors(t *testing.T) {
	t.Parallel()
	llm, err := modelserver.Start(modelserver.Script())
	if err != nil {
		t.Fatal(err)
	}
	defer llm.Close()
	dir := t.TempDir()
	typo := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(typo, []byte("version: 1\nrules:\n  - when: {tool: click, name: \"*buy*\"}\n    then: confirm\n  - when: {tol: type}\n    then: deny\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	badThen := filepath.Join(dir, "then.yaml")
	if err := os.WriteFile(badThen, []byte("rules:\n  - when: {tool: click}\n    then: ask\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"run", "--url", "https://example.org", "--base-url", llm.BaseURL(), "--model", "m"}
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"unknown field", []string{"--policy", typo}, []string{typo + `:5: unknown field "tol"; did you mean "tool"?`, "fields: tool, site, role, name, form_method, form_action, read_only"}},
		{"unknown then", []string{"--policy", badThen}, []string{badThen + `:3: then "ask" is not a decision`, "allow, deny, confirm"}},
		{"missing file", []string{"--policy", filepath.Join(dir, "nope.yaml")}, []string{"nope.yaml: cannot read the policy file"}},
		{"unknown preset", []string{"--confirm", "purchase"}, []string{`unknown preset "purchase"; did you mean "purchases"?`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, p := run(t, append(append(base, c.args...), "order the mug")...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitUsage, p.stderr.String())
			}
			for _, w := range c.want {
				if !strings.Contains(p.stderr.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, p.stderr.String())
				}
			}
			if left := p.left(); len(left) > 0 {
				t.Errorf("a browser was started: %v", left)
			}
		})
	}
	if n := len(llm.Requests()); n != 0 {
		t.Errorf("the model server got %d requests", n)
	}
}

// TestPolicyConfirmTerminal runs a checkout with --confirm purchases and
// answers the question on the terminal (a pseudo-terminal as stdin): no
// leaves the order unplaced and the model told, yes places it.
func TestPolicyConfirmTerminal(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		answer string
		orders int32
	}{{"no", 0}, {"yes", 1}} {
		t.Run(c.answer, func(t *testing.T) {
			t.Parallel()
			var orders atomic.Int32
			shop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				if r.Method == http.MethodPost && r.URL.Path == "/order" {
					orders.Add(1)
					fmt.Fprint(w, `<title>Thanks</title><h1>Order placed</h1>`)
					return
				}
				fmt.Fprint(w, `<title>Checkout</title><form method="post" action="/order"><button>Place order</button></form>`)
			}))
			defer shop.Close()
			llm, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
				if res := req.LastTool(); res != "" {
					return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]string{"answer": "done"})}}
				}
				ref, _ := modelserver.FindRef(req.LastUser(), "button", "Place order")
				return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]string{"ref": ref})}}
			}))
			if err != nil {
				t.Fatal(err)
			}
			defer llm.Close()

			master, slave := openPTY(t)
			errs := newWatchedBuffer()
			p := &proc{tmp: t.TempDir()}
			p.cmd = exec.Command(bin, "run", "--url", shop.URL+"/", "--base-url", llm.BaseURL(), "--model", "m",
				"--confirm", "purchases", "--human-timeout", "30s", "--json", "order the mug")
			p.cmd.Env = append(os.Environ(), "TMPDIR="+p.tmp)
			p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = slave, &p.stdout, errs
			if err := p.cmd.Start(); err != nil {
				t.Fatal(err)
			}
			slave.Close()
			t.Cleanup(func() {
				if p.cmd.ProcessState == nil {
					p.cmd.Process.Kill()
					p.cmd.Wait()
				}
			})
			if !errs.waitFor("Your answer (yes or no, then Enter): ", time.Minute) {
				t.Fatalf("no question on stderr:\n%s", errs.String())
			}
			if _, err := master.Write([]byte(c.answer + "\n")); err != nil {
				t.Fatal(err)
			}
			code := p.wait(t, time.Minute)
			p.stderr.WriteString(errs.String())
			if code != exitOK {
				t.Fatalf("exit %d; stderr:\n%s", code, errs.String())
			}
			if n := orders.Load(); n != c.orders {
				t.Errorf("the shop got %d orders, want %d", n, c.orders)
			}
			if want := `click button "Place order" on ` + strings.TrimPrefix(shop.URL, "http://"); !strings.Contains(errs.String(), want) {
				t.Errorf("the question lacks %q:\n%s", want, errs.String())
			}
			told := false
			for _, r := range llm.Requests() {
				told = told || strings.Contains(r.Req.LastTool(), "refused by the user's policy")
			}
			if told != (c.orders == 0) {
				t.Errorf("the model was told of a refusal: %v", told)
			}
			if !strings.Contains(p.stdout.String(), `"policy": [`) {
				t.Errorf("the JSON result has no policy decisions:\n%s", p.stdout.String())
			}
			p.noChromeLeft(t)
		})
	}
}

// openPTY opens a pseudo-terminal pair (Linux).
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	unlock := int32(0)
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatalf("unlocking the pseudo-terminal: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatalf("naming the pseudo-terminal: %v", e)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return m, s
}

// watchedBuffer is a buffer safe for concurrent use that tells when it
// holds a text.
type watchedBuffer struct {
	mu      sync.Mutex
	b       bytes.Buffer
	changed chan struct{} // closed and replaced at each write
}

func newWatchedBuffer() *watchedBuffer { return &watchedBuffer{changed: make(chan struct{})} }

func (w *watchedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	close(w.changed)
	w.changed = make(chan struct{})
	return w.b.Write(p)
}

func (w *watchedBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// waitFor reports whether the buffer holds s within d.
func (w *watchedBuffer) waitFor(s string, d time.Duration) bool {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	for {
		w.mu.Lock()
		ok, ch := strings.Contains(w.b.String(), s), w.changed
		w.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-ch:
		case <-deadline.C:
			return false
		}
	}
}
