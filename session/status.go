package session

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/webagent/webagent/browser"
)

// The session's own commands: close and status.

// close answers a close: with Args["save_storage_state"] (an absolute
// path) it first writes the browser's cookies and storage there, and a
// state that cannot be saved keeps the session open.
func (s *server) close(ctx context.Context, req Request) Reply {
	text := "session " + s.cfg.Name + " closed: its browser and folders are removed"
	path, _ := req.Args["save_storage_state"].(string)
	if path == "" {
		return Reply{Status: OK, Text: text}
	}
	s.mu.Lock()
	b := s.b
	s.mu.Unlock()
	if b == nil {
		return Reply{Status: Failed, Code: "NO_BROWSER", Text: "the session has no browser yet: nothing to save; the session stays open"}
	}
	sctx, cancel := context.WithTimeout(ctx, SnapshotBudget)
	defer cancel()
	st, err := b.ReadStorageState(sctx)
	if err == nil {
		err = browser.WriteStorageState(path, st)
	}
	if err != nil {
		return Reply{Status: Failed, Code: "SAVE_FAILED", Text: fmt.Sprintf("saving the storage state to %s: %v; the session stays open", path, err)}
	}
	return Reply{Status: OK, Text: text + "; saved to " + path + ": " + st.Summary()}
}

func (s *server) status() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var sb strings.Builder
	fmt.Fprintf(&sb, "session %s: up %s, process %d", s.cfg.Name, time.Since(s.began).Round(time.Second), os.Getpid())
	if s.b != nil {
		fmt.Fprintf(&sb, ", browser process %d", s.b.PID())
	}
	if s.cfg.IdleTimeout > 0 {
		fmt.Fprintf(&sb, ", ends after %s without commands", s.cfg.IdleTimeout)
	}
	names := make([]string, 0, len(s.agents))
	for n := range s.agents {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		var tabs []string
		for id, o := range s.owner {
			if o == n {
				tabs = append(tabs, id)
			}
		}
		slices.Sort(tabs)
		fmt.Fprintf(&sb, "\nagent %s: current tab %s; tabs %s", n, cmp.Or(s.agents[n].tab, "none yet"), strings.Join(tabs, ", "))
	}
	if s.view != nil {
		who := "the commands have control"
		if s.view.Lease().Wanted() {
			who = "a person has or asked for control: commands that act on the page are refused"
		}
		fmt.Fprintf(&sb, "\nlive view: open, %s (webagent browser live prints its links)", who)
	}
	return sb.String()
}
