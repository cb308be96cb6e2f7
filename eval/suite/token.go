package suite

import (
	"encoding/json"
	"fmt"
)

// The tokens of a reference line, and tokenize, which splits a line into them.

type tokKind int

const (
	tWord tokKind = iota
	tString
	tPartial // ~"text"
	tSemi
)

type token struct {
	kind tokKind
	text string
}

func (t token) String() string {
	switch t.kind {
	case tString:
		return fmt.Sprintf("%q", t.text)
	case tPartial:
		return fmt.Sprintf("~%q", t.text)
	case tSemi:
		return "';'"
	}
	return t.text
}

// tokenize splits a line into words, quoted strings (JSON escapes), ~"…"
// and ';'. A '#' outside quotes starts a comment.
func tokenize(s string) ([]token, error) {
	var toks []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '#':
			return toks, nil
		case c == ';':
			toks = append(toks, token{kind: tSemi})
			i++
		case c == '"' || c == '~' && i+1 < len(s) && s[i+1] == '"':
			kind := tString
			if c == '~' {
				kind, i = tPartial, i+1
			}
			end := i + 1
			for end < len(s) && s[end] != '"' {
				if s[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(s) {
				return nil, fmt.Errorf("the string starting at column %d is not closed with \"", i+1)
			}
			var v string
			if err := json.Unmarshal([]byte(s[i:end+1]), &v); err != nil {
				return nil, fmt.Errorf("bad string %s: use JSON escapes such as \\\" and \\\\", s[i:end+1])
			}
			toks = append(toks, token{kind: kind, text: v})
			i = end + 1
		case isWordByte(c):
			end := i
			for end < len(s) && isWordByte(s[end]) {
				end++
			}
			toks = append(toks, token{kind: tWord, text: s[i:end]})
			i = end
		default:
			return nil, fmt.Errorf("unexpected %q at column %d (quote names and text with \")", c, i+1)
		}
	}
	return toks, nil
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}
