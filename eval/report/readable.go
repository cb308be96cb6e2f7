package report

import (
	"bytes"
	"encoding/json"
	"strings"
)

// ReadableJSON is JSON text as people should read it: the escapes that
// encoding/json writes for <, > and & by default (\u003c, \u003e, \u0026)
// turned back into the characters, so a step shows <secret>pw</secret>
// rather than \u003csecret\u003epw\u003c/secret\u003e. Every other byte,
// and so the key order, is kept; the result is still valid JSON.
func ReadableJSON(raw string) string {
	if !strings.Contains(raw, `\u00`) {
		return raw
	}
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' || i+1 >= len(raw) {
			b.WriteByte(c)
			continue
		}
		if raw[i+1] == 'u' && i+6 <= len(raw) {
			switch strings.ToLower(raw[i+2 : i+6]) {
			case "003c":
				b.WriteByte('<')
				i += 5
				continue
			case "003e":
				b.WriteByte('>')
				i += 5
				continue
			case "0026":
				b.WriteByte('&')
				i += 5
				continue
			}
		}
		// Any other escape, \\ included, is copied whole.
		b.WriteByte(c)
		b.WriteByte(raw[i+1])
		i++
	}
	return b.String()
}

// marshalReadable is json.MarshalIndent without the HTML escapes.
func marshalReadable(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
