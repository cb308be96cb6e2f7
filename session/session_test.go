package session_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/webagent/webagent/session"
	"github.com/webagent/webagent/testfixture/tier"
)

// One process per session name: a second Serve of a name being served
// says so (after waiting a while for a session that is ending); a client
// without a way to start one gets ErrNoSession; names that could leave
// the folder are refused.
func TestOneProcessPerName(t *testing.T) {
	tier.Slow(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ready := make(chan error, 1)
	done := make(chan error, 1)
	go func() {
		done <- session.Serve(ctx, session.Config{Name: "one", Dir: dir, Ready: func(err error) { ready <- err }})
	}()
	if err := <-ready; err != nil {
		t.Fatal(err)
	}
	lctx, lcancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer lcancel()
	if err := session.Serve(lctx, session.Config{Name: "one", Dir: dir}); err == nil {
		t.Error("a second Serve of the same name did not fail")
	}
	if names, err := session.Sessions(ctx, dir); err != nil || len(names) != 1 || names[0] != "one" {
		t.Errorf("Sessions = %q, %v", names, err)
	}
	if _, err := (&session.Client{Name: "two", Dir: dir}).Do(ctx, session.Request{Command: "snapshot"}); !errors.Is(err, session.ErrNoSession) {
		t.Errorf("a client of a session no one serves: %v", err)
	}
	if r, err := (&session.Client{Name: "one", Dir: dir}).Do(ctx, session.Request{Command: "flyaway"}); err != nil || r.Status != session.Invalid {
		t.Errorf("an unknown command: %+v, %v", r, err)
	}
	if r, err := (&session.Client{Name: "one", Dir: dir}).Do(ctx, session.Request{Command: "snapshot", Agent: "../x"}); err != nil || r.Status != session.Invalid {
		t.Errorf("a bad agent name: %+v, %v", r, err)
	}
	if err := session.CheckName("session", "../x"); err == nil {
		t.Error("CheckName took ../x")
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve after its context ended: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) > 0 {
		t.Errorf("left in the folder after the session ended: %v", left)
	}
}
