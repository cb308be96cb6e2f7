package launcher

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The ordinary user agent is Chromium's reduced one with the binary's
// major version, whatever the binary calls itself; a binary that prints
// no version gives an error, not a made-up user agent.
func TestOrdinaryUserAgent(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, c := range []struct{ prints, want string }{
		{"Chromium 156.0.8078.79 built on Debian GNU/Linux 12 (bookworm)", "Chrome/156.0.0.0 Safari/537.36"},
		{"Google Chrome 131.0.6778.85 ", "Chrome/131.0.0.0 Safari/537.36"},
		{"I am not a browser", ""},
	} {
		fake := filepath.Join(t.TempDir(), "chrome")
		if err := os.WriteFile(fake, []byte("#!"+sh+"\necho '"+c.prints+"'\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		ua, err := OrdinaryUserAgent(ctx, fake)
		switch {
		case c.want == "" && err == nil:
			t.Errorf("%q: user agent %q, want an error", c.prints, ua)
		case c.want != "" && (err != nil || !regexp.MustCompile(`^Mozilla/5\.0 \([^)]+\) AppleWebKit/537\.36 \(KHTML, like Gecko\) `+regexp.QuoteMeta(c.want)+`$`).MatchString(ua)):
			t.Errorf("%q: user agent %q (%v), want one ending %q", c.prints, ua, err, c.want)
		}
	}
}

// The client hints' brands are those Chromium and Chrome report for their
// version: a GREASE brand and Chromium's for Chromium, with Chrome's too
// for Chrome, in the order the major version picks.
func TestVersionBrands(t *testing.T) {
	for _, c := range []struct {
		v    Version
		want string
	}{
		{Version{"Chromium", "156.0.8078.79", "156"}, `"Not:A-Brand";v="8", "Chromium";v="156"`},
		{Version{"Google Chrome", "131.0.6778.85", "131"}, `"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"`},
		{Version{"Google Chrome", "120.0.6099.109", "120"}, `"Not_A Brand";v="8", "Chromium";v="120", "Google Chrome";v="120"`},
	} {
		var got []string
		for _, b := range c.v.Brands() {
			got = append(got, fmt.Sprintf("%q;v=%q", b.Brand, b.Version))
		}
		if s := strings.Join(got, ", "); s != c.want {
			t.Errorf("%s %s: brands %s, want %s", c.v.Name, c.v.Full, s, c.want)
		}
	}
}
