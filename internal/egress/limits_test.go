package egress

import "testing"

func TestLocalhostAddr(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"app.localhost:8080":   "127.0.0.1:8080",
		"A.B.LOCALHOST.:443":   "127.0.0.1:443",
		"localhost:80":         "localhost:80",
		"notlocalhost:80":      "notlocalhost:80",
		"example.org:443":      "example.org:443",
		"localhost.example:80": "localhost.example:80",
	} {
		if got := localhostAddr(in); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}
