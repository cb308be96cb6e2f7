package botauth

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// DefaultExpiry is how long a signature is valid after it is made when
// SignerOptions.Expiry is zero: short, so that a captured request cannot
// be replayed for long, and long enough for a clock a little off.
const DefaultExpiry = time.Minute

// The labels of a request signature and of its Signature-Agent member.
const (
	sigLabel   = "sig1"
	agentLabel = "agent1"
	requestTag = "web-bot-auth"
	nonceBytes = 64
)

// SignerOptions configure NewSigner.
type SignerOptions struct {
	// SignatureAgent is the https URL where the operator's key directory
	// lives (the origin serving DirectoryPath); when set, each request
	// carries it in Signature-Agent, covered by the signature. Empty sends
	// none: the site must know the key another way.
	SignatureAgent string
	// Expiry is how long a signature is valid; DefaultExpiry if zero.
	Expiry time.Duration
	// Now is the clock (time.Now if nil), Rand the source of nonces
	// (crypto/rand if nil); tests set them.
	Now  func() time.Time
	Rand io.Reader
}

// Signer makes the Web Bot Auth headers of requests. It is safe for
// concurrent use.
type Signer struct {
	key   *Key
	agent string // the Signature-Agent header's value, "" for none
	opts  SignerOptions
	// label names the signature, agentKey the Signature-Agent member.
	label, agentKey string
}

// NewSigner returns a signer with key. An error says which option is
// wrong (a Signature-Agent that is not an https URL, a negative expiry).
func NewSigner(key *Key, opts SignerOptions) (*Signer, error) {
	if key == nil {
		return nil, fmt.Errorf("botauth: no key")
	}
	if opts.Expiry < 0 {
		return nil, fmt.Errorf("botauth: expiry %s is negative", opts.Expiry)
	}
	if opts.Expiry == 0 {
		opts.Expiry = DefaultExpiry
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Rand == nil {
		opts.Rand = rand.Reader
	}
	s := &Signer{key: key, opts: opts, label: sigLabel, agentKey: agentLabel}
	if opts.SignatureAgent != "" {
		if err := CheckSignatureAgent(opts.SignatureAgent); err != nil {
			return nil, err
		}
		s.agent = sfString(opts.SignatureAgent)
	}
	return s, nil
}

// CheckSignatureAgent says why u cannot be a Signature-Agent: it must be
// an absolute https URL without user information, query or fragment.
func CheckSignatureAgent(u string) error {
	p, err := url.Parse(u)
	switch {
	case err != nil:
		return fmt.Errorf("signature agent %q is not a URL: %w", u, err)
	case p.Scheme != "https" || p.Host == "":
		return fmt.Errorf("signature agent %q must be an https URL (where the key directory is served), e.g. https://bot.example.com", u)
	case p.User != nil || p.RawQuery != "" || p.Fragment != "":
		return fmt.Errorf("signature agent %q must have no user, query or fragment", u)
	case strings.ContainsAny(u, "\"\\") || !isPrintableASCII(u):
		return fmt.Errorf("signature agent %q has characters a header cannot carry", u)
	}
	return nil
}

func isPrintableASCII(s string) bool {
	for i := range len(s) {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// Key is the signer's key.
func (s *Signer) Key() *Key { return s.key }

// Sign returns the headers that sign a request to authority (the URL's
// host, with its port when not the scheme's default: see Authority).
func (s *Signer) Sign(authority string) (http.Header, error) {
	nonce := make([]byte, nonceBytes)
	if _, err := io.ReadFull(s.opts.Rand, nonce); err != nil {
		return nil, fmt.Errorf("botauth: reading a nonce: %w", err)
	}
	created := s.opts.Now()
	return s.sign(authority, signParams{
		created: created.Unix(),
		expires: created.Add(s.opts.Expiry).Unix(),
		nonce:   base64.StdEncoding.EncodeToString(nonce),
	}), nil
}

// signParams are the varying parameters of one signature.
type signParams struct {
	created, expires int64
	nonce            string
}

func (s *Signer) sign(authority string, p signParams) http.Header {
	components := `("@authority")`
	base := `"@authority": ` + strings.ToLower(authority) + "\n"
	if s.agent != "" {
		components = `("@authority" "signature-agent";key=` + sfString(s.agentKey) + `)`
		base += `"signature-agent";key=` + sfString(s.agentKey) + `: ` + s.agent + "\n"
	}
	params := components +
		";created=" + strconv.FormatInt(p.created, 10) +
		";keyid=" + sfString(s.key.kid) +
		`;alg="ed25519"` +
		";expires=" + strconv.FormatInt(p.expires, 10) +
		";nonce=" + sfString(p.nonce) +
		";tag=" + sfString(requestTag)
	base += `"@signature-params": ` + params
	sig := s.key.sign([]byte(base))
	h := http.Header{}
	h.Set("Signature-Input", s.label+"="+params)
	h.Set("Signature", s.label+"=:"+base64.StdEncoding.EncodeToString(sig)+":")
	if s.agent != "" {
		h.Set("Signature-Agent", s.agentKey+"="+s.agent)
	}
	return h
}

// sfString is s as a structured-field string (RFC 8941): quoted, with
// '"' and '\' escaped. Callers pass printable ASCII.
func sfString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// Authority is the @authority component of a request to u (RFC 9421
// section 2.2.3): the host in lower case, with the port unless it is the
// scheme's default.
func Authority(u *url.URL) string {
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if port == "" || (u.Scheme == "https" && port == "443") || (u.Scheme == "http" && port == "80") ||
		(u.Scheme == "wss" && port == "443") || (u.Scheme == "ws" && port == "80") {
		if strings.Contains(host, ":") {
			return "[" + host + "]"
		}
		return host
	}
	return net.JoinHostPort(host, port)
}
