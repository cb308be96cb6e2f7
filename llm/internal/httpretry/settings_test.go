package httpretry

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

var errKind = errors.New("invalid configuration")

// TestSettingsNormalize: every problem is reported at once, naming the
// field and how to fix it, each wrapping the kind; a good Settings comes
// back as used, each value meaning what it says.
func TestSettingsNormalize(t *testing.T) {
	t.Parallel()
	p := &Problems{Kind: errKind}
	Settings{Inactivity: -time.Second, RetryBaseDelay: -1, MaxRetryDelay: -2,
		HTTPClient: &http.Client{Timeout: time.Minute}}.Normalize(p)
	err := p.Err()
	if !errors.Is(err, errKind) {
		t.Fatalf("error %v does not wrap the kind", err)
	}
	lines := strings.Split(err.Error(), "\n")
	wants := []string{
		"invalid configuration: Inactivity is -1s: it must not be negative (0 disables the stream inactivity window)",
		"invalid configuration: RetryBaseDelay is -1ns: it must not be negative (0 means 500ms)",
		"invalid configuration: MaxRetryDelay is -2ns: it must not be negative (0 means 30s)",
		"invalid configuration: HTTPClient.Timeout is 1m0s: it must be 0, a whole-request timeout cuts long healthy streams " +
			"(bound calls with their context and Config.Inactivity)",
	}
	if len(lines) != len(wants) {
		t.Fatalf("error %q, want %d problems", err, len(wants))
	}
	for i, want := range wants {
		if lines[i] != want {
			t.Errorf("problem %d = %q, want %q", i, lines[i], want)
		}
	}

	hc := &http.Client{}
	for _, tt := range []struct {
		in, want Settings
	}{
		{Settings{}, Settings{MaxRetries: DefaultMaxRetries, RetryBaseDelay: DefaultRetryBaseDelay, MaxRetryDelay: DefaultMaxRetryDelay}},
		{Settings{MaxRetries: -1, HTTPClient: hc}, Settings{RetryBaseDelay: DefaultRetryBaseDelay, MaxRetryDelay: DefaultMaxRetryDelay, HTTPClient: hc}},
		{Settings{Inactivity: time.Second, MaxRetries: 5, RetryBaseDelay: time.Millisecond, MaxRetryDelay: time.Second, HTTPClient: hc},
			Settings{Inactivity: time.Second, MaxRetries: 5, RetryBaseDelay: time.Millisecond, MaxRetryDelay: time.Second, HTTPClient: hc}},
	} {
		p := &Problems{Kind: errKind}
		got := tt.in.Normalize(p)
		if p.Err() != nil {
			t.Errorf("Normalize(%+v): %v", tt.in, p.Err())
		}
		if tt.in.HTTPClient == nil {
			if got.HTTPClient == nil || got.HTTPClient.Timeout != 0 || got.HTTPClient.Transport == http.DefaultTransport {
				t.Errorf("Normalize(%+v) made HTTP client %+v, want one of its own without a timeout", tt.in, got.HTTPClient)
			}
			got.HTTPClient = nil
		}
		if got != tt.want {
			t.Errorf("Normalize(%+v) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}
