package session

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/liveview"
)

// The session's live view (package liveview): a person watches the
// session's browser, sees each command as a step, and may take the
// browser over. It opens at the first live command, on Config.Live or on
// a server of the session's own (a free loopback port, listed for webagent
// console), shows the session's browser and each one it starts after a
// failure, and closes with the session.
//
// While a person holds control, a command that acts on the page is
// refused (PERSON_HAS_CONTROL) and nothing is done; one that only reads
// (a snapshot, a screenshot, wait_for, the tab list) runs beside them, on
// the tab they see: reading the page takes nothing from them, and the
// coding agent may follow what they do. A person's "take over" waits for
// the command in flight to end.

// CmdLive is the command that opens the view and answers its URLs (read
// them with LiveURLs); with Args["revoke"] true, new ones.
const CmdLive = "live"

// CodePersonHasControl is the code of a command refused while a person
// holds control of the browser in the live view.
const CodePersonHasControl = "PERSON_HAS_CONTROL"

// personHasControl is what the refused command answers.
const personHasControl = "a person has control of the browser in the live view; run the command again after they hand it back"

// errBeside: a command that runs beside a person would have to switch or
// open a tab, which would take the screen from them.
var errBeside = errors.New(personHasControl + " (and it shows another tab than this agent's)")

// maxStepText bounds an outcome or arguments a step shows in the view.
const maxStepText = 600

// liveState is the session's live view server.
type liveState struct {
	mu    sync.Mutex // held while the view opens
	srv   *liveview.Server
	own   bool         // srv is the session's own: it closes with the session
	steps atomic.Int64 // the steps shown
}

// liveURLs answers a live command: the view's URLs, the view opened (and its
// server started) at the first; with Args["revoke"], new ones.
func (s *server) liveURLs(req Request) Reply {
	v, err := s.openView()
	if err != nil {
		return Reply{Status: Failed, Code: "LIVE_FAILED", Text: "the live view could not start: " + err.Error()}
	}
	view, control := v.URLs()
	if revoke, _ := req.Args["revoke"].(bool); revoke {
		view, control = v.Revoke()
	}
	return Reply{Status: OK, Text: fmt.Sprintf("live view (watch):   %s\nlive view (control): %s", view, control)}
}

// liveLinks reads the links of a live command's reply.
var liveLinks = regexp.MustCompile(`live view \(watch\):\s+(\S+)\nlive view \(control\):\s+(\S+)`)

// LiveURLs reads the view's URLs from a live command's reply text; ok is
// false for any other text.
func LiveURLs(text string) (view, control string, ok bool) {
	m := liveLinks.FindStringSubmatch(text)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// openView returns the session's view, opening it the first time.
func (s *server) openView() (*liveview.View, error) {
	s.lv.mu.Lock()
	defer s.lv.mu.Unlock()
	if v := s.currentView(); v != nil {
		return v, nil
	}
	if s.lv.srv == nil {
		srv := s.cfg.Live
		if srv == nil {
			var err error
			if srv, err = liveview.Start(liveview.Config{Addr: "127.0.0.1:0", Register: true, Logger: s.log}); err != nil {
				return nil, err
			}
			s.lv.own = true
		}
		s.lv.srv = srv
	}
	v := s.lv.srv.Open(liveview.Options{Title: "session " + s.cfg.Name, Idle: cmp.Or(s.cfg.HumanTimeout, agent.DefaultHumanTimeout)})
	s.mu.Lock()
	s.view = v
	if s.b != nil {
		v.Attach(s.b)
	}
	s.mu.Unlock()
	return v, nil
}

// currentView is the session's view, nil before the first live command.
func (s *server) currentView() *liveview.View {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view
}

// closeLive closes the view, and the server when it is the session's own.
func (s *server) closeLive() {
	s.mu.Lock()
	v := s.view
	s.view = nil
	s.mu.Unlock()
	if v != nil {
		v.Close()
	}
	s.lv.mu.Lock()
	defer s.lv.mu.Unlock()
	if s.lv.own && s.lv.srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := s.lv.srv.Close(ctx); err != nil {
			s.log.Warn("closing the live view server", "error", err)
		}
	}
	s.lv.srv = nil
}

// takeLease counts the command in as acting on the browser, when the
// session has a view: it returns its release, or the refusal of a command
// that acts on the page while a person holds control. A command that only
// reads runs beside them. The caller holds the turn.
func (s *server) takeLease(cmd string, a contract.Action) (release func(), refused *Reply) {
	v := s.currentView()
	if v == nil {
		return func() {}, nil
	}
	release, err := v.Lease().TryAct()
	if err == nil {
		return release, nil
	}
	if !observes(cmd, a) {
		return nil, &Reply{Status: Failed, Code: CodePersonHasControl, Text: personHasControl}
	}
	s.setBeside(true)
	return func() { s.setBeside(false) }, nil
}

// setBeside says whether the command holding the turn runs beside a
// person who holds control.
func (s *server) setBeside(on bool) {
	s.mu.Lock()
	s.beside = on
	s.mu.Unlock()
}

// observes reports whether a command only reads the page.
func observes(cmd string, a contract.Action) bool {
	switch cmd {
	case cmdSnapshot, cmdScreenshot, agent.ToolReadEmail, contract.ActWait, contract.ActWaitFor,
		contract.ActExtract, contract.ActBox, contract.ActReadRegion, contract.ActOptions:
		return true
	case contract.ActTabs:
		return a.Op == "" || a.Op == contract.TabsList
	}
	return false
}

// refuseWhileHeld is the refusal of a command (close) while a person holds
// control; ok is false when none is due.
func (s *server) refuseWhileHeld() (Reply, bool) {
	v := s.currentView()
	if v == nil {
		return Reply{}, false
	}
	release, err := v.Lease().TryAct()
	if err != nil {
		return Reply{Status: Failed, Code: CodePersonHasControl, Text: personHasControl}, true
	}
	release()
	return Reply{}, false
}

// step shows a command in the view as a step: its tool, arguments and
// outcome, masked.
func (s *server) step(req Request, agentName string, r Reply, took time.Duration) {
	switch req.Command {
	case cmdStatus, CmdLive, cmdClose:
		return
	}
	if r.Status == Invalid {
		return
	}
	v := s.currentView()
	if v == nil {
		return
	}
	n := int(s.lv.steps.Add(1))
	rec := agent.ActionRecord{Tool: req.Command, Outcome: clip(s.mask.Mask(r.Text)), Error: r.Status != OK, MS: took.Milliseconds()}
	if len(req.Args) > 0 {
		if raw, err := json.Marshal(req.Args); err == nil {
			rec.Args = clippedJSON(s.mask.Mask(string(raw)))
		}
	}
	st := agent.Step{Iteration: n, StartMS: time.Since(s.began).Milliseconds() - took.Milliseconds(), Actions: []agent.ActionRecord{rec}}
	if agentName != "default" {
		st.Thought = "agent " + agentName
	}
	if r.Code != "" && r.Status != OK {
		st.Error = r.Code
	}
	v.OnStep(st)
}

// clip cuts a text to maxStepText.
func clip(s string) string {
	if len(s) <= maxStepText {
		return s
	}
	cut := maxStepText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// clippedJSON is raw as JSON, or, when it is too long, a JSON string of
// its start.
func clippedJSON(raw string) json.RawMessage {
	if len(raw) <= maxStepText {
		return json.RawMessage(raw)
	}
	b, _ := json.Marshal(clip(raw))
	return b
}
