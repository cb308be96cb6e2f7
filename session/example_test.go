package session_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/session"
)

// A session served in this process, and a client that sends it commands as
// webagent browser does from separate processes.
func Example() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Hello</title><button>Say hi</button>`)
	}))
	defer site.Close()
	dir, _ := os.MkdirTemp("", "sessions")
	defer os.RemoveAll(dir)
	allow, _ := contract.ParseDomainPatterns(strings.TrimPrefix(site.URL, "http://"))

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ready := make(chan error, 1)
	done := make(chan error, 1)
	go func() {
		done <- session.Serve(ctx, session.Config{Name: "demo", Dir: dir, Policy: contract.NavigationPolicy{Allowed: allow},
			Ready: func(err error) { ready <- err }})
	}()
	if err := <-ready; err != nil {
		fmt.Println(err)
		return
	}
	c := &session.Client{Name: "demo", Dir: dir}
	for _, req := range []session.Request{
		{Command: "goto", Args: map[string]any{"url": site.URL}},
		{Command: "snapshot"},
		{Command: "click", Args: map[string]any{"ref": "e1"}},
		{Command: "close"},
	} {
		r, err := c.Do(ctx, req)
		if err != nil {
			fmt.Println(err)
			return
		}
		last := strings.Split(r.Text, "\n")
		fmt.Println(r.Status, strings.Replace(last[len(last)-1], site.URL, "http://SITE", 1))
	}
	fmt.Println(<-done)
	// Output:
	// ok navigated to http://SITE/ ("Hello")
	// ok button "Say hi" [ref=e1]
	// ok clicked button "Say hi" [ref=e1]; nothing on the page changed (yet)
	// ok session demo closed: its browser and folders are removed
	// <nil>
}
