package browser

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/browser/launcher"
	"github.com/webagent/webagent/contract"
)

// A Server is shared by isolated Browsers; Close leaves no process or
// profile behind.
func TestServer(t *testing.T) {
	tmp := shortTempDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := StartServer(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.URL, "ws://127.0.0.1:") || !s.Alive() {
		t.Fatalf("server %q alive=%v", s.URL, s.Alive())
	}
	url := servePage(t, `<title>Served</title><button>Hi</button>`)
	for range 2 {
		b, err := Launch(ctx, Options{CDPURL: s.URL, Isolated: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.Do(ctx, contract.Action{Name: contract.ActGoto, URL: url}); err != nil {
			t.Fatal(err)
		}
		snap, err := b.Snapshot(ctx)
		if err != nil || !strings.Contains(snap.Text, `button "Hi"`) {
			t.Fatalf("snapshot %q, %v", snap.Text, err)
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if !s.Alive() {
		t.Fatal("closing an attached Browser stopped the server")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s.Alive() {
		t.Fatal("alive after Close")
	}
	if _, err := os.Stat(s.proc.Profile); !os.IsNotExist(err) {
		t.Fatalf("profile %s left behind (%v)", s.proc.Profile, err)
	}
	if left := launcher.ProcessesUsing(s.proc.Profile); len(left) > 0 {
		t.Fatalf("processes left: %v", left)
	}
	wantNoProfiles(t, tmp)
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestServerStartIsBoundedByContext(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := StartServer(ctx, Options{}); err == nil || !strings.Contains(err.Error(), "deadline") {
		t.Fatalf("err %v", err)
	}
	if e := time.Since(start); e > 3*time.Second {
		t.Fatalf("returned after %s", e)
	}
}
