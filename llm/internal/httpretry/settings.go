package httpretry

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

// The defaults of Settings, which package llm exports as its own.
const (
	DefaultMaxRetries     = 3
	DefaultRetryBaseDelay = 500 * time.Millisecond
	DefaultMaxRetryDelay  = 30 * time.Second
)

// Settings are what every model client's Config says about sending its
// requests, under the Config's names. As a Config gives them, 0 means the
// default of each (MaxRetries, the delays, the HTTP client) or none (the
// inactivity window), and a negative MaxRetries means no retries.
// Normalize turns them into the values used, each meaning what it says as
// net/http.Server's timeouts do: MaxRetries 0 is no retry, Inactivity 0
// no window.
type Settings struct {
	Inactivity     time.Duration
	MaxRetries     int
	RetryBaseDelay time.Duration
	MaxRetryDelay  time.Duration
	HTTPClient     *http.Client
}

// Normalize checks s, adding each problem to p, and returns the settings
// used: the defaults filled in, a negative MaxRetries as 0, and an HTTP
// client of its own when s has none (without a Timeout: streams are
// bounded by ctx and the inactivity window).
func (s Settings) Normalize(p *Problems) Settings {
	if s.Inactivity < 0 {
		p.Add("Inactivity is %s: it must not be negative (0 disables the stream inactivity window)", s.Inactivity)
	}
	if s.RetryBaseDelay < 0 {
		p.Add("RetryBaseDelay is %s: it must not be negative (0 means %s)", s.RetryBaseDelay, DefaultRetryBaseDelay)
	}
	if s.MaxRetryDelay < 0 {
		p.Add("MaxRetryDelay is %s: it must not be negative (0 means %s)", s.MaxRetryDelay, DefaultMaxRetryDelay)
	}
	if s.HTTPClient != nil && s.HTTPClient.Timeout != 0 {
		p.Add("HTTPClient.Timeout is %s: it must be 0, a whole-request timeout cuts long healthy streams "+
			"(bound calls with their context and Config.Inactivity)", s.HTTPClient.Timeout)
	}
	switch {
	case s.MaxRetries == 0:
		s.MaxRetries = DefaultMaxRetries
	case s.MaxRetries < 0:
		s.MaxRetries = 0
	}
	if s.RetryBaseDelay == 0 {
		s.RetryBaseDelay = DefaultRetryBaseDelay
	}
	if s.MaxRetryDelay == 0 {
		s.MaxRetryDelay = DefaultMaxRetryDelay
	}
	if s.HTTPClient == nil {
		s.HTTPClient = &http.Client{}
		if t, ok := http.DefaultTransport.(*http.Transport); ok {
			s.HTTPClient.Transport = t.Clone()
		}
	}
	return s
}

// Doer returns a Doer sending through s.HTTPClient with s's retries,
// logging to log with redact applied; the caller may set its Final and
// Reason.
func (s Settings) Doer(log *slog.Logger, redact func(string) string) *Doer {
	return &Doer{Next: s.HTTPClient, MaxRetries: s.MaxRetries, BaseDelay: s.RetryBaseDelay, MaxDelay: s.MaxRetryDelay,
		Log: log, Redact: redact}
}

// Backoff is the jittered delay before retry number attempt (1 for the
// first) with s's delays.
func (s Settings) Backoff(attempt int) time.Duration {
	return Backoff(s.RetryBaseDelay, s.MaxRetryDelay, attempt)
}

// Resend waits before sending a request again whose stream failed with a
// transient error in the middle of the reply (resend is 1 for the first
// time), saying so in log; the error is ctx's when it ends first.
func (s Settings) Resend(ctx context.Context, log *slog.Logger, resend int, reason string) error {
	delay := s.Backoff(resend)
	log.Warn("model server failed in the middle of its reply; the partial reply is dropped and the request sent again",
		"resend", resend, "retry_in", delay, "reason", reason)
	if err := Sleep(ctx, delay); err != nil {
		return fmt.Errorf("waiting %s to send the model request again: %w", delay, err)
	}
	return nil
}

// Problems gathers what is wrong with a client's Config, each problem
// wrapping Kind (llm.ErrConfig), so that one error reports them all.
type Problems struct {
	Kind error
	errs []error
}

// Add notes a problem: what is wrong and how to fix it.
func (p *Problems) Add(format string, args ...any) {
	p.errs = append(p.errs, fmt.Errorf("%w: "+format, append([]any{p.Kind}, args...)...))
}

// Err joins the problems noted, or is nil when there are none.
func (p *Problems) Err() error { return errors.Join(p.errs...) }
