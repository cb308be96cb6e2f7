package secret

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/webagent/webagent/contract"
)

// Set keeps credentials given to a task out of the model's view, the
// logs and the step records. The model writes <secret>NAME</secret>; only the
// browser ever receives the value, and only by the type action, into a field
// of a page on one of the secret's origins. Get one from New.
type Set struct {
	// mu guards the maps and forms: Add may learn a secret while another
	// goroutine masks.
	mu      sync.RWMutex
	values  map[string]string
	origins map[string][]string // name -> the origins it may be typed on
	bad     map[string]string   // name -> why its binding cannot be used
	otps    map[string]*OTP     // name -> its generator, for a one-time password
	// err is the first secret that cannot be read (a malformed one-time
	// password generator): the run refuses to start.
	err error
	// forms holds every encoded form of every value, longest first, with
	// the placeholder that replaces it.
	forms []secretForm
	// links are the secrets goto may open (AddLink).
	links map[string]bool
}

type secretForm struct{ enc, name string }

var (
	secretRef  = regexp.MustCompile(`<secret>([A-Za-z0-9_.-]+)</secret>`)
	secretName = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)
)

// ParseKey splits a secret's key, NAME or NAME@ORIGIN, and checks the
// name (letters, digits, '_', '.', '-') and the origin (scheme://host[:port]
// of an http or https URL, returned in lower case).
func ParseKey(key string) (name, origin string, err error) {
	name, origin, bound := strings.Cut(key, "@")
	if !secretName.MatchString(name) {
		return "", "", fmt.Errorf("secret name %q: use letters, digits, '_', '.' or '-'", name)
	}
	if !bound {
		return name, "", nil
	}
	o, err := originOf(origin)
	if err != nil {
		return "", "", fmt.Errorf("secret %s@%s: %w; write e.g. %s@https://login.example.com", name, origin, err, name)
	}
	return name, o, nil
}

// originOf returns the origin of an absolute http(s) URL.
func originOf(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not an http or https origin", raw)
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), nil
}

// New reads a task's secrets, keyed NAME or NAME@ORIGIN. A key without an
// origin is bound to the origin of startURL (to none when startURL is not
// an http or https URL). An empty value is left out. A key or a value that
// cannot be used does not stop New: filling that secret is refused saying
// why, and a malformed one-time password generator is also reported by
// Err.
func New(values map[string]string, startURL string) *Set {
	s := &Set{values: map[string]string{}, origins: map[string][]string{}, bad: map[string]string{}, otps: map[string]*OTP{}, links: map[string]bool{}}
	start, _ := originOf(startURL)
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := values[k]
		if v == "" {
			continue
		}
		name, origin, err := ParseKey(k)
		if err != nil {
			name, _, _ = strings.Cut(k, "@")
			s.bad[name] = err.Error()
			origin = ""
		} else if origin == "" {
			origin = start
		}
		if old, ok := s.values[name]; ok && old != v {
			s.bad[name] = fmt.Sprintf("secret %s is given twice with different values", name)
		}
		s.values[name] = v
		if origin != "" && !slices.Contains(s.origins[name], origin) {
			s.origins[name] = append(s.origins[name], origin)
		}
	}
	for _, name := range s.Names() {
		v := s.values[name]
		forms := encodings(v)
		if IsOTP(v) {
			forms = append(forms, s.addOTP(name, v)...)
		}
		for _, enc := range forms {
			s.forms = append(s.forms, secretForm{enc, name})
		}
	}
	s.sortForms()
	return s
}

// sortForms puts the longest forms first, so that a value inside another
// is masked as the longer one.
func (s *Set) sortForms() {
	sort.SliceStable(s.forms, func(i, j int) bool {
		if len(s.forms[i].enc) != len(s.forms[j].enc) {
			return len(s.forms[i].enc) > len(s.forms[j].enc)
		}
		return s.forms[i].enc < s.forms[j].enc
	})
}

// addOTP reads the generator of the secret name, keeping why it cannot be
// used when it is malformed, and returns the forms of its key to mask.
func (s *Set) addOTP(name, v string) []string {
	o, err := ParseOTP(v)
	if err != nil {
		s.bad[name] = err.Error()
		if s.err == nil {
			s.err = fmt.Errorf("secret %s: %w", name, err)
		}
		return nil
	}
	s.otps[name] = o
	return o.keyForms()
}

// Err is the first secret that cannot be read, a malformed one-time
// password generator (its *OTPError wrapped with the secret's name), or
// nil. A run given such a secret must not start.
func (s *Set) Err() error { return s.err }

// Names lists the secrets' names, sorted.
func (s *Set) Names() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.names()
}

func (s *Set) names() []string {
	n := make([]string, 0, len(s.values))
	for k := range s.values {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// Mask replaces every secret value, in every form it can take on the way
// back (raw, URL-encoded, HTML entities, JSON escapes, base64, and the
// sign-in codes typed), by its <secret>NAME</secret> placeholder.
func (s *Set) Mask(text string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.mask(text)
}

func (s *Set) mask(text string) string {
	for _, f := range s.forms {
		if strings.Contains(text, f.enc) {
			text = strings.ReplaceAll(text, f.enc, "<secret>"+f.name+"</secret>")
		}
	}
	text = s.maskCodes(text)
	if strings.Contains(text, "%") && len(s.values) > 0 {
		text = s.maskEscaped(text)
	}
	return text
}

// escapedRun is a piece of a URL or form body that may hold an escaped
// value: between the delimiters of a query.
var escapedRun = regexp.MustCompile(`[A-Za-z0-9%+\-._~!*'()@:;,$]*%[0-9A-Fa-f]{2}[A-Za-z0-9%+\-._~!*'()@:;,$]*`)

// maskEscaped catches percent-encodings the list of forms does not (any mix
// of escaped and plain characters, of hex cases): each escaped run is
// decoded and masked as a whole when it holds a value.
func (s *Set) maskEscaped(text string) string {
	return escapedRun.ReplaceAllStringFunc(text, func(run string) string {
		dec, err := url.QueryUnescape(run)
		if err != nil {
			return run
		}
		if masked := s.maskPlain(dec); masked != dec {
			return masked
		}
		return run
	})
}

// maskPlain masks the raw values only.
func (s *Set) maskPlain(text string) string {
	for _, name := range s.names() {
		text = strings.ReplaceAll(text, s.values[name], "<secret>"+name+"</secret>")
	}
	return s.maskCodes(text)
}

// fillText replaces known placeholders by their values; a one-time
// password generator's by the code valid now.
func (s *Set) fillText(text string) string {
	if len(s.values) == 0 {
		return text
	}
	return secretRef.ReplaceAllStringFunc(text, func(m string) string {
		name := secretRef.FindStringSubmatch(m)[1]
		if o := s.otps[name]; o != nil {
			return o.Now()
		}
		if v, ok := s.values[name]; ok {
			return v
		}
		return m
	})
}

// used returns the names of the known secrets the text refers to.
func (s *Set) used(text string) []string {
	var out []string
	for _, m := range secretRef.FindAllStringSubmatch(text, -1) {
		if _, ok := s.values[m[1]]; ok && !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// Fill fills the placeholders of a type action's text, and sets the
// secrets' names and the origins its field must be on (Action.SecretNames,
// Action.Origins). A placeholder anywhere else (a URL, an option, another
// tool) is refused with an *contract.ActionError that names the secret,
// never its value.
func (s *Set) Fill(a contract.Action) (contract.Action, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.values) == 0 {
		return a, nil
	}
	if a.Name == contract.ActPageTool {
		return s.fillArguments(a)
	}
	if a.Name == contract.ActGoto {
		if name, ok := s.link(a.URL); ok {
			return s.fillLink(a, name)
		}
	}
	if a.Name != contract.ActType {
		for _, f := range actionTexts(a) {
			if names := s.used(f); len(names) > 0 {
				return a, contract.ActionErrorf("the secret %s can only be typed into a field of its own site with type; it is never put into %s", names[0], a.Name)
			}
		}
		return a, nil
	}
	names := s.used(a.Text)
	if len(names) == 0 {
		return a, nil
	}
	origins, err := s.originsOf(names)
	if err != nil {
		return a, err
	}
	a.Text = s.fillText(a.Text)
	a.SecretNames, a.Origins = names, origins
	return a, nil
}

// fillArguments fills the placeholders in the string values of a page
// tool's arguments, as a type action's text, and sets the origins the
// tool's document must be on.
func (s *Set) fillArguments(a contract.Action) (contract.Action, error) {
	for _, f := range append(actionTexts(a), a.Tool) {
		if names := s.used(f); len(names) > 0 {
			return a, contract.ActionErrorf("the secret %s can only be given in a page tool's arguments, never in its name", names[0])
		}
	}
	var v any
	if len(a.Arguments) == 0 || json.Unmarshal(a.Arguments, &v) != nil {
		return a, nil // the browser says what is wrong with them
	}
	// The decoded strings: in the JSON text, < and > may be escaped.
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // v was decoded from JSON: it encodes
	names := s.used(sb.String())
	if len(names) == 0 {
		return a, nil
	}
	origins, err := s.originsOf(names)
	if err != nil {
		return a, err
	}
	filled, err := json.Marshal(s.fillValue(v))
	if err != nil {
		return a, err
	}
	a.Arguments = filled
	a.SecretNames, a.Origins = names, origins
	return a, nil
}

// fillValue fills the placeholders of every string in v.
func (s *Set) fillValue(v any) any {
	switch x := v.(type) {
	case string:
		return s.fillText(x)
	case []any:
		for i := range x {
			x[i] = s.fillValue(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = s.fillValue(x[k])
		}
	}
	return v
}

// originsOf returns the origins every one of the named secrets is bound
// to, or why they cannot be used together.
func (s *Set) originsOf(names []string) ([]string, error) {
	var origins []string
	for i, n := range names {
		if why, bad := s.bad[n]; bad {
			return nil, contract.ActionErrorf("the secret %s cannot be used: %s", n, why)
		}
		o := s.origins[n]
		if len(o) == 0 {
			return nil, contract.ActionErrorf("the secret %s is bound to no site (the task has no start URL); the user must bind it as %s@https://site", n, n)
		}
		if i == 0 {
			origins = append([]string(nil), o...)
			continue
		}
		origins = slices.DeleteFunc(origins, func(x string) bool { return !slices.Contains(o, x) })
	}
	if len(origins) == 0 {
		return nil, contract.ActionErrorf("the secrets %s are bound to different sites and cannot be typed together", strings.Join(names, ", "))
	}
	return origins, nil
}

// actionTexts lists the text fields of an action the model wrote.
func actionTexts(a contract.Action) []string {
	out := []string{a.URL, a.Text, a.Option, a.Key, a.Value, a.Tab, a.Ref, a.ToRef}
	out = append(out, a.Options...)
	out = append(out, a.Remove...)
	out = append(out, a.Files...)
	return out
}
