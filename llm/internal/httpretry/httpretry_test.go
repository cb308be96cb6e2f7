package httpretry

import (
	"fmt"
	"net/http"
	"syscall"
	"testing"
	"time"
)

func TestRetryAfterParsing(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		header, value string
		want          time.Duration
		ok            bool
	}{
		{"Retry-After", "1", time.Second, true},
		{"Retry-After", " 0 ", 0, true},
		{"Retry-After", "1.5", 1500 * time.Millisecond, true},
		{"Retry-After", now.Add(7 * time.Second).Format(http.TimeFormat), 7 * time.Second, true},
		{"Retry-After", now.Add(-time.Hour).Format(http.TimeFormat), 0, true},
		{"Retry-After", "soon", 0, false},
		{"Retry-After", "-3", 0, false},
		{"Retry-After-Ms", "250", 250 * time.Millisecond, true},
		{"X-Other", "5", 0, false},
	}
	both := http.Header{"Retry-After": {"3"}, "Retry-After-Ms": {"2500"}}
	if got, ok := After(both, now); !ok || got != 2500*time.Millisecond {
		t.Errorf("both headers: %s, %v; want the precise retry-after-ms, 2.5s", got, ok)
	}
	for _, tt := range tests {
		h := http.Header{}
		h.Set(tt.header, tt.value)
		got, ok := After(h, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: %q = %s, %v; want %s, %v", tt.header, tt.value, got, ok, tt.want, tt.ok)
		}
	}
}

func TestBackoffIsJitteredExponentialAndCapped(t *testing.T) {
	t.Parallel()
	for attempt, full := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond,
		3: 400 * time.Millisecond, 4: 800 * time.Millisecond, 5: time.Second, 80: time.Second} {
		seen := map[time.Duration]bool{}
		for range 50 {
			got := Backoff(100*time.Millisecond, time.Second, attempt)
			if got < full/2 || got > full {
				t.Fatalf("attempt %d: backoff %s outside [%s, %s]", attempt, got, full/2, full)
			}
			seen[got] = true
		}
		if len(seen) < 2 {
			t.Errorf("attempt %d: no jitter", attempt)
		}
	}
}

func TestTransient(t *testing.T) {
	t.Parallel()
	if Transient(http.ErrHandlerTimeout) {
		t.Error("an unrelated error counted as transient")
	}
	if !Transient(fmt.Errorf("reading: %w", syscall.ECONNRESET)) {
		t.Error("a reset connection not counted as transient")
	}
}
