package botauth

import (
	"crypto/ed25519"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/webagent/webagent/testfixture/sigcheck"
)

// TestDirectoryHandler: the directory is served at its well-known path
// with its media type, lists the keys' public parts only, and its
// response signature verifies for the authority asked.
func TestDirectoryHandler(t *testing.T) {
	t.Parallel()
	k1, _ := NewKey(nil)
	k2, _ := NewKey(nil)
	srv := httptest.NewServer(DirectoryHandler(0, k1, k2))
	defer srv.Close()
	res, err := http.Get(srv.URL + DirectoryPath)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != DirectoryMediaType {
		t.Fatalf("status %d, type %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	var dir struct {
		Keys []map[string]string `json:"keys"`
	}
	if err := json.Unmarshal(body, &dir); err != nil || len(dir.Keys) != 2 {
		t.Fatalf("directory %s: %v", body, err)
	}
	for i, k := range []*Key{k1, k2} {
		j := dir.Keys[i]
		if j["kty"] != "OKP" || j["crv"] != "Ed25519" || j["x"] != k.x() || j["kid"] != k.Thumbprint() || j["d"] != "" {
			t.Errorf("key %d: %v", i, j)
		}
	}
	authority := strings.TrimPrefix(srv.URL, "http://")
	inputs, sigs := res.Header.Values("Signature-Input"), res.Header.Values("Signature")
	if len(inputs) != 2 || len(sigs) != 2 {
		t.Fatalf("%d signature inputs, %d signatures; want one per key", len(inputs), len(sigs))
	}
	for i, k := range []*Key{k1, k2} {
		v := sigcheck.Verifier{Keys: map[string]ed25519.PublicKey{k.Thumbprint(): k.Public()}, Tag: "http-message-signatures-directory"}
		h := http.Header{"Signature-Input": {inputs[i]}, "Signature": {sigs[i]}}
		s, err := v.Headers(authority, h)
		if err != nil {
			t.Errorf("key %d: the directory's signature: %v", i, err)
			continue
		}
		if len(s.Components) != 1 || s.Components[0] != `"@authority";req` {
			t.Errorf("key %d covers %v", i, s.Components)
		}
	}
	if res, err := http.Get(srv.URL + "/other"); err != nil || res.StatusCode != 404 {
		t.Errorf("another path: %v, %v", res.StatusCode, err)
	}
}

// TestSignVerifies: live signatures verify, carry fresh nonces and a
// short expiry, and cover the Signature-Agent.
func TestSignVerifies(t *testing.T) {
	t.Parallel()
	k, _ := NewKey(nil)
	s, err := NewSigner(k, SignerOptions{SignatureAgent: "https://bot.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	v := sigcheck.Verifier{Keys: map[string]ed25519.PublicKey{k.Thumbprint(): k.Public()}}
	seen := map[string]bool{}
	for range 3 {
		h, err := s.Sign("Shop.Example:8443")
		if err != nil {
			t.Fatal(err)
		}
		got, err := v.Headers("shop.example:8443", h)
		if err != nil {
			t.Fatal(err)
		}
		if got.Agent != "https://bot.example.com" || got.Expires-got.Created != int64(DefaultExpiry.Seconds()) || seen[got.Nonce] {
			t.Errorf("signed %+v", got)
		}
		seen[got.Nonce] = true
		if _, err := v.Headers("other.example", h); err == nil {
			t.Error("a signature for one authority verifies for another")
		}
	}
	for _, bad := range []string{"http://bot.example.com", "bot.example.com", "https://u:p@bot.example.com", "https://bot.example.com/?q=1"} {
		if _, err := NewSigner(k, SignerOptions{SignatureAgent: bad}); err == nil {
			t.Errorf("signature agent %q accepted", bad)
		}
	}
}
