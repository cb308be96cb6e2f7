package browser

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"
)

func TestLaunchConfigErrors(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	for _, c := range []struct {
		name string
		opts Options
		want string
	}{
		{"closed port", Options{CDPURL: closed}, "nothing answers at " + closed},
		{"not chromium", Options{ChromePath: "/bin/true"}, "/bin/true did not start as a Chromium browser"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			b, err := Launch(ctx, c.opts)
			if err == nil {
				b.Close()
				t.Fatal("Launch succeeded")
			}
			var ce *ConfigError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.want) || ce.Err == nil {
				t.Fatalf("Launch = %v (%T), want a *ConfigError saying %q", err, err, c.want)
			}
		})
	}
	t.Run("cancelled is not a configuration error", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := Launch(ctx, Options{CDPURL: closed})
		var ce *ConfigError
		if err == nil || errors.As(err, &ce) {
			t.Fatalf("Launch with a cancelled context = %v, want a context error", err)
		}
	})
}
