package liveview_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/webagent/webagent/liveview"
)

// A server with a public URL names it in its Views' URLs; one that is not
// scheme://host[:port] is refused.
func TestPublicURL(t *testing.T) {
	t.Parallel()
	srv := serve(t, liveview.Config{PublicURL: "https://worker-1.example:8443/"})
	v := srv.Open(liveview.Options{Title: "public"})
	defer v.Close()
	view, control := v.URLs()
	for _, u := range []string{view, control} {
		if !strings.HasPrefix(u, "https://worker-1.example:8443/v/"+v.ID()+"?t=") {
			t.Errorf("URL %s does not start with the public URL", u)
		}
	}
	for _, bad := range []string{"worker-1.example:8443", "ftp://worker-1.example", "https://worker-1.example/live", "https://worker-1.example/?a=b", "https://"} {
		if s, err := liveview.Start(liveview.Config{PublicURL: bad}); err == nil {
			_ = s.Close(context.Background())
			t.Errorf("public URL %q accepted", bad)
		}
	}
}

// A viewer who revokes the links from the page: the View's OnRevoke gets
// the new URLs, and the old ones stop working.
func TestOnRevokePerView(t *testing.T) {
	t.Parallel()
	srv := serve(t, liveview.Config{})
	got := make(chan [2]string, 1)
	v := srv.Open(liveview.Options{Title: "revoke", OnRevoke: func(view, control string) { got <- [2]string{view, control} }})
	defer v.Close()
	oldView, oldControl := v.URLs()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ws := strings.Replace(oldControl, "/v/"+v.ID()+"?", "/v/"+v.ID()+"/ws?", 1)
	conn, _, err := websocket.Dial(ctx, strings.Replace(ws, "http://", "ws://", 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	if err := conn.Write(ctx, websocket.MessageText, []byte(`{"type":"revoke"}`)); err != nil {
		t.Fatal(err)
	}
	select {
	case urls := <-got:
		if urls[0] == oldView || urls[1] == oldControl {
			t.Errorf("OnRevoke got the old URLs")
		}
		if now, nowC := v.URLs(); now != urls[0] || nowC != urls[1] {
			t.Errorf("OnRevoke got %v, the View has %s %s", urls, now, nowC)
		}
	case <-ctx.Done():
		t.Fatal("OnRevoke was not called")
	}
}
