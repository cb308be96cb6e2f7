package session

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/inbox"
	"github.com/webagent/webagent/watchdog"
)

// read_email (agent.ToolReadEmail) reads the session's inbox (Config.Inbox)
// as the loop's tool does: the newest message since the session began, its
// one-time code and sign-in link learnt as secrets bound to the origin of
// the agent's page, the message answered with their placeholders.

// Mailbox is the session's inbox: inbox.Config is one.
type Mailbox interface {
	Wait(ctx context.Context, q inbox.Query, wait time.Duration) (*inbox.Message, error)
}

// The waits of read_email: wait_ms by default and at most, and what the
// connection and the search take beyond it (as the loop's tool).
const (
	defaultMailWait = 20 * time.Second
	mailSlack       = 15 * time.Second
)

// readEmail runs a read_email command; the caller holds the turn.
func (s *server) readEmail(ctx context.Context, name string, req Request) Reply {
	if s.cfg.Inbox == nil {
		return invalid("read_email needs the session's inbox: start the session with --inbox imaps://USER@HOST/INBOX and --secret inbox=env:VAR")
	}
	q := inbox.Query{Since: s.began}
	q.From, _ = req.Args["from"].(string)
	q.Subject, _ = req.Args["subject"].(string)
	wait := defaultMailWait
	if ms, ok := req.Args["wait_ms"].(float64); ok {
		wait = time.Duration(min(max(ms, 0), float64(contract.MaxWait.Milliseconds()))) * time.Millisecond
	}
	b, err := s.browser(ctx)
	if err != nil {
		return Reply{Status: Failed, Code: "BROWSER_FAILED", Text: err.Error()}
	}
	st, err := s.agentTab(ctx, b, name)
	if errors.Is(err, errBeside) {
		return Reply{Status: Failed, Code: CodePersonHasControl, Text: err.Error()}
	}
	if err != nil {
		return Reply{Status: Failed, Code: "ACTION_FAILED", Text: "the agent's tab did not answer: " + err.Error()}
	}
	page := ""
	if snap, err := watchdog.Run(ctx, "snapshot", SnapshotBudget, b.Snapshot); err == nil {
		page = snap.URL // the origin the code and link are bound to
	}
	m, err := watchdog.Run(ctx, agent.ToolReadEmail, wait+mailSlack, func(ctx context.Context) (*inbox.Message, error) {
		return s.cfg.Inbox.Wait(ctx, q, wait)
	})
	var te *watchdog.TimeoutError
	switch {
	case err == nil && m == nil:
		return Reply{Status: OK, Tab: st.tab, Text: fmt.Sprintf("no email came since the session began (waited %s)", wait)}
	case err == nil:
		return Reply{Status: OK, Tab: st.tab, Text: s.mask.Mask(agent.MailText(m, page, s.mask))}
	case ctx.Err() != nil:
		return Reply{Status: Failed, Code: "CANCELED", Text: "canceled"}
	case errors.As(err, &te):
		return Reply{Status: TimedOut, Code: "TIMEOUT", Tab: st.tab, Text: fmt.Sprintf("the mail server did not answer within %s; try again later", te.Budget)}
	}
	return Reply{Status: Failed, Code: "ACTION_FAILED", Tab: st.tab, Text: s.mask.Mask(err.Error())}
}
