package secret

import (
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// typedCodes remembers, for each one-time password generator, the encoded
// forms (see encodings) of the codes typed in this process and of the
// codes of the periods either side of each: a page may echo any of them
// back, and every set of secrets holding the same generator (the run's,
// the log's Masker, the trace's) must hide them. Only codes typed are
// masked, so that a page's other numbers stay readable when no code was
// typed.
var typedCodes = struct {
	sync.Mutex
	forms map[[32]byte][]string // id -> forms, in the order typed
}{forms: map[[32]byte][]string{}}

// maxTypedForms bounds the forms kept per generator (a long-lived MCP
// server types codes for hours); the oldest, long expired, go first.
const maxTypedForms = 4096

// id names a generator in typedCodes without holding its key.
func (o *OTP) id() [32]byte {
	return sha256.Sum256(fmt.Appendf(nil, "%s/%d/%d/%x", o.algo, o.digits, o.period, o.key))
}

// Now returns the code valid now, to be typed: from then on every Masker
// (and every run) of a secret with this generator hides it, and the codes
// of the periods either side of it, in this process.
func (o *OTP) Now() string { return o.typeCode(time.Now()) }

// typeCode returns the code valid at now, first recording it and its
// neighbours for masking.
func (o *OTP) typeCode(now time.Time) string {
	code := o.Code(now)
	id := o.id()
	typedCodes.Lock()
	defer typedCodes.Unlock()
	forms := typedCodes.forms[id]
	for _, t := range []time.Time{now.Add(-o.period), now, now.Add(o.period)} {
		for _, f := range encodings(o.Code(t)) {
			if !slices.Contains(forms, f) {
				forms = append(forms, f)
			}
		}
	}
	if over := len(forms) - maxTypedForms; over > 0 {
		forms = forms[over:]
	}
	typedCodes.forms[id] = forms
	return code
}

// typedForms returns the forms of the codes typed so far, longest first.
func (o *OTP) typedForms() []string {
	typedCodes.Lock()
	forms := slices.Clone(typedCodes.forms[o.id()])
	typedCodes.Unlock()
	slices.SortStableFunc(forms, func(a, b string) int { return len(b) - len(a) })
	return forms
}

// keyForms are the forms of a generator's key alone, as a page or a log
// could show it: canonical base32, upper and lower case.
func (o *OTP) keyForms() []string {
	k := base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(o.key)
	return append(encodings(k), encodings(strings.ToLower(k))...)
}

// maskCodes replaces the codes typed of every generator by its
// placeholder. A code in digits is masked only as a number of its own,
// not as the middle of a longer one (a timestamp, a price), which it would
// break.
func (s *Set) maskCodes(text string) string {
	for _, name := range s.otpNames() {
		for _, f := range s.otps[name].typedForms() {
			if isDigits(f) {
				text = replaceNumber(text, f, "<secret>"+name+"</secret>")
			} else {
				text = strings.ReplaceAll(text, f, "<secret>"+name+"</secret>")
			}
		}
	}
	return text
}

// replaceNumber replaces each n in text that no other digit touches.
func replaceNumber(text, n, repl string) string {
	var b strings.Builder
	for {
		i := strings.Index(text, n)
		if i < 0 {
			break
		}
		end := i + len(n)
		if (i > 0 && isDigits(text[i-1:i])) || (end < len(text) && isDigits(text[end:end+1])) {
			b.WriteString(text[:i+1])
			text = text[i+1:]
			continue
		}
		b.WriteString(text[:i])
		b.WriteString(repl)
		text = text[end:]
	}
	if b.Len() == 0 {
		return text
	}
	return b.String() + text
}

// isDigits reports whether s is ASCII digits only.
func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// otpNames lists the secrets that are generators, sorted.
func (s *Set) otpNames() []string {
	n := make([]string, 0, len(s.otps))
	for k := range s.otps {
		n = append(n, k)
	}
	slices.Sort(n)
	return n
}

// PromptNames lists the secrets for a model's system prompt: their names,
// sorted, and for a generator what it types and, as human says whether a
// person can be asked (the ask_human tool), where a code sent by mail or
// SMS comes from.
func (s *Set) PromptNames(human bool) []string {
	out := s.Names()
	for i, n := range out {
		if s.otps[n] == nil {
			continue
		}
		out[i] = n + " (types the current sign-in code of an authenticator app, computed when typed; " +
			"a code sent by mail or SMS is not this secret"
		if human {
			out[i] += ": ask the person for it with ask_human"
		} else {
			out[i] += ": only the person has it, so fail saying the site asks for it"
		}
		out[i] += ")"
	}
	return out
}
