package botauth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, name string, data []byte, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil { // past the umask
		t.Fatal(err)
	}
	return p
}

// TestLoadKeyRefuses: each key a user could give by mistake is refused
// with a *KeyError that names the file and says what to do.
func TestLoadKeyRefuses(t *testing.T) {
	t.Parallel()
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ecDER, _ := x509.MarshalPKCS8PrivateKey(ec)
	good, _ := NewKey(nil)
	goodDER, _ := x509.MarshalPKCS8PrivateKey(good.priv)
	goodPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: goodDER})
	pubDER, _ := x509.MarshalPKIXPublicKey(good.Public())
	dir := t.TempDir()
	for _, c := range []struct {
		name, path, want string
	}{
		{"missing", filepath.Join(dir, "nope.pem"), "no such file; make one with `webagent bot-key new FILE`"},
		{"folder", dir, "is a folder"},
		{"world-readable", writeFile(t, "open.pem", goodPEM, 0o644), "other users may read it (mode 0644); run `chmod 600"},
		{"ecdsa", writeFile(t, "ec.pem", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: ecDER}), 0o600), "is a ECDSA key; Web Bot Auth signs here with Ed25519"},
		{"public", writeFile(t, "pub.pem", pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER}), 0o600), "is a public key"},
		{"rsa-block", writeFile(t, "rsa.pem", pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: []byte{1}}), 0o600), `is a "RSA PRIVATE KEY" PEM block`},
		{"jwk-p256", writeFile(t, "ec.jwk", []byte(`{"kty":"EC","crv":"P-256","x":"a","y":"b","d":"c"}`), 0o600), `kty "EC" crv "P-256"`},
		{"jwk-public", writeFile(t, "pub.jwk", good.PublicJWK(), 0o600), "has no private part"},
		{"garbage", writeFile(t, "x.txt", []byte("hello"), 0o600), "neither PEM nor a JSON Web Key"},
	} {
		k, err := LoadKey(c.path)
		var ke *KeyError
		if k != nil || !errors.As(err, &ke) || !strings.Contains(err.Error(), c.want) || ke.Path != c.path {
			t.Errorf("%s: LoadKey = %v, %v; want a *KeyError for %s containing %q", c.name, k, err, c.path, c.want)
		}
	}
}

// TestLoadKeyForms: PKCS#8 PEM as openssl writes it and an OKP JWK with
// its private part give the same key.
func TestLoadKeyForms(t *testing.T) {
	t.Parallel()
	k, err := NewKeyFile(filepath.Join(t.TempDir(), "bot.pem"))
	if err != nil {
		t.Fatal(err)
	}
	seed := base64.RawURLEncoding.EncodeToString(k.priv.Seed())
	jwkText := fmt.Sprintf(`{"kty":"OKP","crv":"Ed25519","d":%q,"x":%q}`, seed, k.x())
	fromJWK, err := LoadKey(writeFile(t, "bot.jwk", []byte(jwkText), 0o600))
	if err != nil || fromJWK.Thumbprint() != k.Thumbprint() {
		t.Fatalf("JWK: %v, %v; want %s", fromJWK, err, k.Thumbprint())
	}
	wrongX := fmt.Sprintf(`{"kty":"OKP","crv":"Ed25519","d":%q,"x":"AAAA"}`, seed)
	if _, err := ParseKey([]byte(wrongX)); err == nil || !strings.Contains(err.Error(), "not the public key of its d") {
		t.Errorf("a JWK whose x is not its d's: %v", err)
	}
}

// TestNewKeyFile: a new key is 0600 PKCS#8 PEM that LoadKey reads, and an
// existing file is never written over.
func TestNewKeyFile(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "bot.pem")
	k, err := NewKeyFile(p)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v; want 0600", st.Mode(), err)
	}
	back, err := LoadKey(p)
	if err != nil || back.Thumbprint() != k.Thumbprint() {
		t.Fatalf("LoadKey: %v, %v", back, err)
	}
	before, _ := os.ReadFile(p)
	if _, err := NewKeyFile(p); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Errorf("NewKeyFile over an existing file: %v", err)
	}
	if after, _ := os.ReadFile(p); string(after) != string(before) {
		t.Error("the existing key was changed")
	}
}

// TestKeyNeverPrints: no way of printing a Key (fmt verbs, JSON, slog)
// shows its private part.
func TestKeyNeverPrints(t *testing.T) {
	t.Parallel()
	k, _ := NewKey(nil)
	seed := base64.RawURLEncoding.EncodeToString(k.priv.Seed())
	seedStd := base64.StdEncoding.EncodeToString(k.priv.Seed())
	js, _ := json.Marshal(struct{ K *Key }{k})
	var logged strings.Builder
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("key", "key", k)
	outs := []string{
		fmt.Sprint(k), fmt.Sprintf("%v %+v %#v %s %q %x", k, k, k, k, k, k), string(js), logged.String(),
		fmt.Sprintf("%v", struct{ K *Key }{k}), fmt.Sprintf("%+v", []*Key{k}),
	}
	for _, out := range outs {
		if strings.Contains(out, seed) || strings.Contains(out, seedStd) || strings.Contains(out, fmt.Sprintf("%x", k.priv.Seed()[:8])) {
			t.Errorf("the private key shows in %q", out)
		}
		if !strings.Contains(out, k.Thumbprint()) {
			t.Errorf("%q does not say which key", out)
		}
	}
}
