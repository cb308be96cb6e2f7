package botauth

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// Key is an operator's Ed25519 signing key. Its printed forms show only
// its thumbprint.
type Key struct {
	priv ed25519.PrivateKey
	kid  string
}

// KeyError says what is wrong with a key and how to fix it. Errors of
// LoadKey, ParseKey and NewKeyFile are *KeyError.
type KeyError struct {
	Path string // the file, when the key came from one
	Msg  string // what is wrong, with the fix
	Err  error  // the cause, if any
}

func (e *KeyError) Error() string {
	if e.Path == "" {
		return "bot key: " + e.Msg
	}
	return "bot key " + e.Path + ": " + e.Msg
}

func (e *KeyError) Unwrap() error { return e.Err }

// genKeyHint is how to make a key the package reads.
const genKeyHint = "make one with `webagent bot-key new FILE` or `openssl genpkey -algorithm ed25519 -out FILE`"

// NewKey makes a new key from the random source r (crypto/rand if nil).
func NewKey(r io.Reader) (*Key, error) {
	if r == nil {
		r = rand.Reader
	}
	_, priv, err := ed25519.GenerateKey(r)
	if err != nil {
		return nil, &KeyError{Msg: "generating an Ed25519 key: " + err.Error(), Err: err}
	}
	return newKey(priv), nil
}

func newKey(priv ed25519.PrivateKey) *Key {
	k := &Key{priv: priv}
	k.kid = thumbprint(k.x())
	return k
}

// LoadKey reads the key in the file at path. The file must be readable by
// its owner only (no permission for other users): a key others can read is
// refused, with the chmod that fixes it.
func LoadKey(path string) (*Key, error) {
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &KeyError{Path: path, Msg: "no such file; " + genKeyHint, Err: err}
		}
		return nil, &KeyError{Path: path, Msg: err.Error(), Err: err}
	}
	if st.IsDir() {
		return nil, &KeyError{Path: path, Msg: "is a folder, not a key file"}
	}
	if m := st.Mode().Perm(); m&0o007 != 0 {
		return nil, &KeyError{Path: path, Msg: fmt.Sprintf("other users may read it (mode %04o); run `chmod 600 %s`", m, path)}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &KeyError{Path: path, Msg: err.Error(), Err: err}
	}
	k, err := ParseKey(data)
	if err != nil {
		var ke *KeyError
		if errors.As(err, &ke) {
			ke.Path = path
		}
		return nil, err
	}
	return k, nil
}

// ParseKey reads an Ed25519 private key from PKCS#8 PEM ("PRIVATE KEY") or
// from an OKP JSON Web Key with its private part d.
func ParseKey(data []byte) (*Key, error) {
	text := strings.TrimSpace(string(data))
	switch {
	case strings.HasPrefix(text, "{"):
		return parseJWK([]byte(text))
	case strings.HasPrefix(text, "-----BEGIN"):
		return parsePEM([]byte(text))
	}
	return nil, &KeyError{Msg: "neither PEM nor a JSON Web Key; " + genKeyHint}
}

func parsePEM(data []byte) (*Key, error) {
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, &KeyError{Msg: "the PEM text does not decode; " + genKeyHint}
	}
	switch block.Type {
	case "PRIVATE KEY":
	case "PUBLIC KEY":
		return nil, &KeyError{Msg: "is a public key; signing needs the private key (PKCS#8 \"PRIVATE KEY\")"}
	case "OPENSSH PRIVATE KEY":
		return nil, &KeyError{Msg: "is an OpenSSH key; convert it or " + genKeyHint}
	default:
		return nil, &KeyError{Msg: fmt.Sprintf("is a %q PEM block, not an Ed25519 PKCS#8 \"PRIVATE KEY\"; %s", block.Type, genKeyHint)}
	}
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, &KeyError{Msg: "the PKCS#8 key does not parse; " + genKeyHint, Err: err}
	}
	priv, ok := key.(ed25519.PrivateKey)
	if !ok {
		return nil, &KeyError{Msg: fmt.Sprintf("is a %s key; Web Bot Auth signs here with Ed25519: %s", keyKind(key), genKeyHint)}
	}
	return newKey(priv), nil
}

// keyKind names the type of a parsed key for an error.
func keyKind(key any) string {
	s := fmt.Sprintf("%T", key)
	switch {
	case strings.Contains(s, "rsa"):
		return "RSA"
	case strings.Contains(s, "ecdsa"):
		return "ECDSA"
	case strings.Contains(s, "ecdh"):
		return "X25519"
	}
	return s
}

// jwk is the JSON Web Key form of an Ed25519 key.
type jwk struct {
	Kty string `json:"kty"`
	Crv string `json:"crv"`
	X   string `json:"x"`
	D   string `json:"d,omitempty"`
	Kid string `json:"kid,omitempty"`
}

func parseJWK(data []byte) (*Key, error) {
	var j jwk
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, &KeyError{Msg: "the JSON Web Key does not parse: " + err.Error(), Err: err}
	}
	if j.Kty != "OKP" || j.Crv != "Ed25519" {
		return nil, &KeyError{Msg: fmt.Sprintf("is a JSON Web Key of kty %q crv %q; Web Bot Auth signs here with OKP Ed25519: %s", j.Kty, j.Crv, genKeyHint)}
	}
	if j.D == "" {
		return nil, &KeyError{Msg: "the JSON Web Key has no private part (d); signing needs it"}
	}
	seed, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(j.D, "="))
	if err != nil || len(seed) != ed25519.SeedSize {
		return nil, &KeyError{Msg: "the JSON Web Key's d is not a 32-byte base64url Ed25519 seed", Err: err}
	}
	k := newKey(ed25519.NewKeyFromSeed(seed))
	if j.X != "" && strings.TrimRight(j.X, "=") != k.x() {
		return nil, &KeyError{Msg: "the JSON Web Key's x is not the public key of its d"}
	}
	return k, nil
}

// NewKeyFile writes a new key to path as PKCS#8 PEM, readable by its
// owner only (0600). It never replaces a file: an existing path is an
// error.
func NewKeyFile(path string) (*Key, error) {
	k, err := NewKey(nil)
	if err != nil {
		return nil, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(k.priv)
	if err != nil {
		return nil, &KeyError{Path: path, Msg: err.Error(), Err: err}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, &KeyError{Path: path, Msg: "exists already; a key is never written over: choose another name", Err: err}
		}
		return nil, &KeyError{Path: path, Msg: err.Error(), Err: err}
	}
	werr := pem.Encode(f, &pem.Block{Type: "PRIVATE KEY", Bytes: der})
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		_ = os.Remove(path)
		return nil, &KeyError{Path: path, Msg: "writing it: " + werr.Error(), Err: werr}
	}
	return k, nil
}

// x is the public key, base64url without padding (the JWK's x).
func (k *Key) x() string {
	return base64.RawURLEncoding.EncodeToString(k.priv.Public().(ed25519.PublicKey))
}

// thumbprint is the RFC 7638 JWK thumbprint of an Ed25519 public key: the
// SHA-256 of its required members in lexical order, with no white space.
func thumbprint(x string) string {
	sum := sha256.Sum256([]byte(`{"crv":"Ed25519","kty":"OKP","x":"` + x + `"}`))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// Thumbprint is the key's RFC 7638 JWK thumbprint (base64url SHA-256), the
// keyid of its signatures.
func (k *Key) Thumbprint() string { return k.kid }

// Public is the public key.
func (k *Key) Public() ed25519.PublicKey { return k.priv.Public().(ed25519.PublicKey) }

// PublicJWK is the public key as a JSON Web Key, its kid the thumbprint.
func (k *Key) PublicJWK() []byte {
	b, _ := json.Marshal(jwk{Kty: "OKP", Crv: "Ed25519", X: k.x(), Kid: k.kid})
	return b
}

// sign signs msg.
func (k *Key) sign(msg []byte) []byte { return ed25519.Sign(k.priv, msg) }

// String shows the key's thumbprint only.
func (k *Key) String() string { return "ed25519 key " + k.kid }

// GoString shows the key's thumbprint only.
func (k *Key) GoString() string { return "botauth.Key{" + k.kid + "}" }

// Format prints the thumbprint for every verb, so that no format of a
// Key shows its private part.
func (k *Key) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		_, _ = io.WriteString(f, k.GoString())
		return
	}
	_, _ = io.WriteString(f, k.String())
}

// MarshalJSON writes the public JWK, never the private part.
func (k *Key) MarshalJSON() ([]byte, error) { return k.PublicJWK(), nil }
