// Package sigcheck verifies Web Bot Auth request signatures for tests: RFC
// 9421 HTTP Message Signatures written out again, apart from the signer of
// package botauth (its own structured-field parser, its own signature
// base), so that a test of the signer is not the signer checking itself.
//
// It reads what a site receives: the Signature-Input, Signature and
// Signature-Agent headers of a request, and its authority.
package sigcheck

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Verifier checks signatures against known public keys, by keyid.
type Verifier struct {
	// Keys maps a keyid (the RFC 7638 thumbprint) to its public key.
	Keys map[string]ed25519.PublicKey
	// Now is the clock for created and expires; time.Now if nil.
	Now func() time.Time
	// Tag is the tag a signature must carry; "web-bot-auth" if empty.
	Tag string
}

// Signed is what a verified signature said.
type Signed struct {
	Label      string
	KeyID      string
	Components []string // as written, e.g. `"signature-agent";key="agent1"`
	Created    int64
	Expires    int64
	Nonce      string
	Agent      string // the Signature-Agent URL it covers, if any
}

// Request verifies the signature of a request a server received.
func (v *Verifier) Request(r *http.Request) (*Signed, error) {
	return v.Headers(strings.ToLower(r.Host), r.Header)
}

// Headers verifies the one signature in h of a request to authority.
func (v *Verifier) Headers(authority string, h http.Header) (*Signed, error) {
	inputs := h.Values("Signature-Input")
	sigs := h.Values("Signature")
	if len(inputs) == 0 || len(sigs) == 0 {
		return nil, errors.New("unsigned: no Signature-Input or Signature header")
	}
	if len(inputs) != 1 || len(sigs) != 1 {
		return nil, fmt.Errorf("%d Signature-Input and %d Signature headers, want one each", len(inputs), len(sigs))
	}
	label, rest, ok := strings.Cut(inputs[0], "=")
	if !ok {
		return nil, fmt.Errorf("the Signature-Input header %q has no label", inputs[0])
	}
	slabel, sigText, ok := strings.Cut(sigs[0], "=")
	if !ok || slabel != label || len(sigText) < 2 || sigText[0] != ':' || sigText[len(sigText)-1] != ':' {
		return nil, fmt.Errorf("the Signature header %q does not match label %q as a byte sequence", sigs[0], label)
	}
	sig, err := base64.StdEncoding.DecodeString(sigText[1 : len(sigText)-1])
	if err != nil {
		return nil, fmt.Errorf("the Signature header: %w", err)
	}
	tag := v.Tag
	if tag == "" {
		tag = "web-bot-auth"
	}
	s, err := parseInput(rest, tag)
	if err != nil {
		return nil, err
	}
	s.Label = label
	var base strings.Builder
	for _, c := range s.Components {
		value, err := component(c, authority, h, s)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&base, "%s: %s\n", c, value)
	}
	fmt.Fprintf(&base, "\"@signature-params\": %s", rest)
	key, ok := v.Keys[s.KeyID]
	if !ok {
		return nil, fmt.Errorf("keyid %q is not a known key", s.KeyID)
	}
	if !ed25519.Verify(key, []byte(base.String()), sig) {
		return nil, fmt.Errorf("the signature does not verify over:\n%s", base.String())
	}
	now := time.Now
	if v.Now != nil {
		now = v.Now
	}
	switch t := now().Unix(); {
	case s.Created == 0 || s.Created > t+5:
		return nil, fmt.Errorf("created %d is missing or in the future (now %d)", s.Created, t)
	case s.Expires == 0 || s.Expires < t:
		return nil, fmt.Errorf("expires %d is missing or past (now %d)", s.Expires, t)
	}
	return s, nil
}

// component is the value of one covered component.
func component(c, authority string, h http.Header, s *Signed) (string, error) {
	name, param, _ := strings.Cut(c, ";")
	switch {
	case name == `"@authority"` && (param == "" || param == "req"):
		// ;req: a response's signature over its request's authority.
		return authority, nil
	case name == `"signature-agent"` && param == "":
		// An older draft: the header is a bare string.
		v := h.Get("Signature-Agent")
		s.Agent = strings.Trim(v, `"`)
		return v, nil
	case name == `"signature-agent"` && strings.HasPrefix(param, "key="):
		key, err := unquote(strings.TrimPrefix(param, "key="))
		if err != nil {
			return "", err
		}
		for member := range strings.SplitSeq(h.Get("Signature-Agent"), ",") {
			k, val, ok := strings.Cut(strings.TrimSpace(member), "=")
			if ok && k == key {
				u, err := unquote(val)
				if err != nil {
					return "", err
				}
				s.Agent = u
				return val, nil
			}
		}
		return "", fmt.Errorf("the Signature-Agent header %q has no member %q", h.Get("Signature-Agent"), key)
	}
	return "", fmt.Errorf("component %s is not one this checker knows", c)
}

// parseInput reads `("a" "b";key="x");p1=v1;…`.
func parseInput(in, wantTag string) (*Signed, error) {
	if !strings.HasPrefix(in, "(") {
		return nil, fmt.Errorf("the Signature-Input header %q has no inner list", in)
	}
	end := strings.IndexByte(in, ')')
	if end < 0 {
		return nil, fmt.Errorf("the Signature-Input header %q has an unclosed inner list", in)
	}
	s := &Signed{}
	if inner := in[1:end]; inner != "" {
		s.Components = strings.Split(inner, " ")
	}
	params := map[string]string{}
	for p := range strings.SplitSeq(strings.TrimPrefix(in[end+1:], ";"), ";") {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			return nil, fmt.Errorf("parameter %q has no value", p)
		}
		if _, dup := params[k]; dup {
			return nil, fmt.Errorf("parameter %s twice", k)
		}
		params[k] = v
	}
	var err error
	str := func(k string) string {
		v, ok := params[k]
		if !ok {
			err = errors.Join(err, fmt.Errorf("no %s parameter", k))
			return ""
		}
		u, uerr := unquote(v)
		err = errors.Join(err, uerr)
		return u
	}
	num := func(k string) int64 {
		n, nerr := strconv.ParseInt(params[k], 10, 64)
		if nerr != nil {
			err = errors.Join(err, fmt.Errorf("%s %q is not an integer", k, params[k]))
		}
		return n
	}
	s.KeyID = str("keyid")
	if _, ok := params["nonce"]; ok || wantTag == "web-bot-auth" {
		s.Nonce = str("nonce")
	}
	s.Created, s.Expires = num("created"), num("expires")
	if alg := str("alg"); alg != "ed25519" {
		err = errors.Join(err, fmt.Errorf("alg %q, want ed25519", alg))
	}
	if tag := str("tag"); tag != wantTag {
		err = errors.Join(err, fmt.Errorf("tag %q, want %s", tag, wantTag))
	}
	return s, err
}

// unquote reads a structured-field string.
func unquote(v string) (string, error) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", fmt.Errorf("%s is not a quoted string", v)
	}
	return strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(v[1 : len(v)-1]), nil
}
