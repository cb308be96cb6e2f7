package secret

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"slices"
	"strings"
)

// minEncoded is the shortest encoded form that is masked: shorter pieces
// (of base64 at an offset) would mask unrelated text.
const minEncoded = 6

// encodings returns the forms a secret value takes on its way back to the
// agent: raw, URL-encoded (form encoding with '+', percent-encoding with
// %20, either hex case, each as browsers and Go escape), HTML entities,
// JSON string escapes, and base64 (standard and URL alphabets, at every
// alignment inside a longer encoded text).
func encodings(v string) []string {
	forms := []string{v}
	add := func(s string) {
		if len(s) >= minEncoded || s == v {
			if !slices.Contains(forms, s) && s != "" {
				forms = append(forms, s)
			}
		}
	}
	add(url.QueryEscape(v))
	add(url.PathEscape(v))
	add(lowerHex(url.PathEscape(v)))
	// Form encoding (browsers), encodeURIComponent, Go's query escape,
	// encodeURI.
	for _, safe := range []string{"*-._", "-_.!~*'()", "-_.~", "-_.!~*'();/?:@&=+$,#"} {
		for _, plus := range []bool{true, false} {
			e := percentEncode(v, safe, plus)
			add(e)
			add(lowerHex(e))
		}
	}
	add(html.EscapeString(v))
	add(strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#x27;").Replace(v))
	add(numericEntities(v))
	for _, escHTML := range []bool{true, false} {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(escHTML)
		_ = enc.Encode(v)
		s := strings.TrimSpace(b.String())
		add(s[1 : len(s)-1])
		add(strings.ReplaceAll(s[1:len(s)-1], "/", `\/`))
	}
	for _, e := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		for k := range 3 {
			add(base64Inner(e, v, k))
		}
	}
	return forms
}

// percentEncode escapes every byte of s but ASCII letters, digits and safe;
// a space becomes '+' when plus is set.
func percentEncode(s, safe string, plus bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c < 0x80 && strings.IndexByte(safe, c) >= 0:
			b.WriteByte(c)
		case c == ' ' && plus:
			b.WriteByte('+')
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// lowerHex turns the hex digits of %XX escapes to lower case.
func lowerHex(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			for j := i + 1; j <= i+2; j++ {
				if b[j] >= 'A' && b[j] <= 'F' {
					b[j] += 'a' - 'A'
				}
			}
		}
	}
	return string(b)
}

// numericEntities writes every character but letters and digits as &#N;.
func numericEntities(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
			continue
		}
		fmt.Fprintf(&b, "&#%d;", r)
	}
	return b.String()
}

// base64Inner is the part of the base64 of v that does not depend on what
// surrounds it, when v starts k bytes into a 3-byte group.
func base64Inner(e *base64.Encoding, v string, k int) string {
	data := append(make([]byte, k), v...)
	s := e.EncodeToString(data)
	from := (8*k + 5) / 6
	to := 8 * len(data) / 6
	if to <= from || to > len(s) {
		return ""
	}
	return s[from:to]
}
