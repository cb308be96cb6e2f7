package inbox

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// Query picks messages: all of them given (each a case-insensitive
// "contains"), received at Since or later.
type Query struct {
	From, Subject string
	Since         time.Time
}

// Message is one mail, read.
type Message struct {
	From, Subject string
	Date          time.Time // when the server received it
	// Text is the body as text: the plain part, else the HTML part with
	// its tags removed and each link written after its words.
	Text string
}

// pollEvery is how often Wait looks at the mailbox again.
const pollEvery = 250 * time.Millisecond

// Wait returns the newest message that matches q, waiting up to wait for
// one to come; nil, nil when none came. It returns when ctx ends, the
// connection closed.
func (c Config) Wait(ctx context.Context, q Query, wait time.Duration) (*Message, error) {
	s, err := c.open(ctx)
	if err != nil {
		return nil, err
	}
	defer s.close()
	deadline := time.Now().Add(wait)
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		m, err := s.newest(q)
		if err != nil || m != nil {
			return m, s.explain(err)
		}
		left := time.Until(deadline)
		if left <= 0 {
			return nil, nil
		}
		timer.Reset(min(left, pollEvery))
		select {
		case <-ctx.Done():
			return nil, s.explain(ctx.Err())
		case <-timer.C:
		}
		if err := s.cl.Noop().Wait(); err != nil {
			return nil, s.explain(err)
		}
	}
}

// Read returns the newest message that matches q now; nil, nil when there
// is none.
func (c Config) Read(ctx context.Context, q Query) (*Message, error) {
	return c.Wait(ctx, q, 0)
}

// session is one signed-in connection with the mailbox selected.
type session struct {
	c    Config
	ctx  context.Context
	conn net.Conn
	cl   *imapclient.Client
	stop func() bool
}

// open connects over TLS, verifies the certificate, signs in and selects
// the mailbox; ctx ending closes the connection, which ends every wait.
func (c Config) open(ctx context.Context) (*session, error) {
	var d net.Dialer
	raw, err := d.DialContext(ctx, "tcp", c.Addr())
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("the mail server %s did not answer before the call's time ran out", c.Addr())
		}
		return nil, fmt.Errorf("cannot reach the mail server %s: %w", c.Addr(), err)
	}
	conn := tls.Client(raw, c.tlsConfig())
	s := &session{c: c, ctx: ctx, conn: conn}
	s.stop = context.AfterFunc(ctx, func() { _ = conn.Close() })
	if err := conn.HandshakeContext(ctx); err != nil {
		s.close()
		return nil, s.explain(err)
	}
	s.cl = imapclient.New(conn, &imapclient.Options{})
	if err := s.cl.Login(c.User, c.Password).Wait(); err != nil {
		s.close()
		return nil, s.explain(err)
	}
	if _, err := s.cl.Select(c.Mailbox, &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		s.close()
		return nil, s.explain(fmt.Errorf("cannot open the mailbox %s: %w", c.Mailbox, err))
	}
	return s, nil
}

func (s *session) close() {
	s.stop()
	if s.cl != nil {
		_ = s.cl.Close()
	}
	_ = s.conn.Close()
}

// explain turns an error into what went wrong for a person: the call's
// time, the certificate, the password. The password never appears.
func (s *session) explain(err error) error {
	if err == nil {
		return nil
	}
	addr := s.c.Addr()
	var host x509.HostnameError
	var authority x509.UnknownAuthorityError
	var ie *imap.Error
	switch {
	case s.ctx.Err() != nil:
		return fmt.Errorf("the mail server %s did not answer before the call's time ran out", addr)
	case errors.As(err, &host):
		return fmt.Errorf("the mail server %s shows a certificate for another name (%s); nothing was sent to it", addr, certNames(host.Certificate))
	case errors.As(err, &authority):
		return fmt.Errorf("the mail server %s shows a certificate no trusted authority signed; give its CA with --inbox-ca FILE", addr)
	case errors.As(err, &ie) && ie.Code == imap.ResponseCodeAuthenticationFailed, errors.As(err, &ie) && ie.Type == imap.StatusResponseTypeNo && s.cl != nil && s.cl.State() == imap.ConnStateNotAuthenticated:
		return fmt.Errorf("the mail server %s refused the sign-in of %s: the password (the secret inbox) is wrong", addr, s.c.User)
	}
	return fmt.Errorf("the mail server %s: %w", addr, err)
}

func certNames(c *x509.Certificate) string {
	if c == nil {
		return "unknown"
	}
	names := slices.Clone(c.DNSNames)
	for _, ip := range c.IPAddresses {
		names = append(names, ip.String())
	}
	if len(names) == 0 {
		names = append(names, c.Subject.CommonName)
	}
	return strings.Join(names, ", ")
}

// newest finds the newest message that matches q and reads it.
func (s *session) newest(q Query) (*Message, error) {
	crit := &imap.SearchCriteria{}
	if !q.Since.IsZero() {
		crit.Since = q.Since.Add(-24 * time.Hour) // a day's granularity, in the server's zone
	}
	data, err := s.cl.UIDSearch(crit, nil).Wait()
	if err != nil {
		return nil, err
	}
	uids := data.AllUIDs()
	if len(uids) == 0 {
		return nil, nil
	}
	msgs, err := s.cl.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, Envelope: true, InternalDate: true}).Collect()
	if err != nil {
		return nil, err
	}
	var best *imapclient.FetchMessageBuffer
	since := q.Since.Truncate(time.Second) // the server's dates have whole seconds
	for _, m := range msgs {
		if m.Envelope == nil || m.InternalDate.Before(since) || !matches(m.Envelope, q) {
			continue
		}
		if best == nil || m.InternalDate.After(best.InternalDate) || (m.InternalDate.Equal(best.InternalDate) && m.UID > best.UID) {
			best = m
		}
	}
	if best == nil {
		return nil, nil
	}
	return s.read(best)
}

func matches(e *imap.Envelope, q Query) bool {
	return contains(e.Subject, q.Subject) && contains(addresses(e.From), q.From)
}

func contains(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(strings.TrimSpace(sub)))
}

func addresses(as []imap.Address) string {
	var out []string
	for _, a := range as {
		s := a.Addr()
		if a.Name != "" {
			s = a.Name + " <" + s + ">"
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}

// read fetches a message's body and makes it text.
func (s *session) read(m *imapclient.FetchMessageBuffer) (*Message, error) {
	section := &imap.FetchItemBodySection{Peek: true}
	got, err := s.cl.Fetch(imap.UIDSetNum(m.UID), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		return nil, err
	}
	if len(got) == 0 {
		return nil, nil // removed meanwhile
	}
	text, err := bodyText(got[0].FindBodySection(section))
	if err != nil {
		return nil, fmt.Errorf("the message %q cannot be read: %w", m.Envelope.Subject, err)
	}
	return &Message{From: addresses(m.Envelope.From), Subject: m.Envelope.Subject, Date: m.InternalDate, Text: text}, nil
}
