package agent

import (
	"regexp"
	"sort"
	"strings"
)

// secrets keeps credentials given to a task out of the model's view, the
// logs and the step records. The model writes <secret>NAME</secret>; only the
// browser ever receives the value.
type secrets struct {
	values map[string]string
	// order holds names by decreasing value length, so that a value that
	// contains another is masked first.
	order []string
}

var secretRef = regexp.MustCompile(`<secret>([A-Za-z0-9_.-]+)</secret>`)

func newSecrets(m map[string]string) *secrets {
	s := &secrets{values: map[string]string{}}
	for k, v := range m {
		if v == "" {
			continue
		}
		s.values[k] = v
		s.order = append(s.order, k)
	}
	sort.Slice(s.order, func(i, j int) bool {
		return len(s.values[s.order[i]]) > len(s.values[s.order[j]])
	})
	return s
}

func (s *secrets) names() []string {
	n := append([]string(nil), s.order...)
	sort.Strings(n)
	return n
}

// mask replaces every secret value in text by its placeholder.
func (s *secrets) mask(text string) string {
	for _, k := range s.order {
		text = strings.ReplaceAll(text, s.values[k], "<secret>"+k+"</secret>")
	}
	return text
}

// fill replaces known placeholders by their values.
func (s *secrets) fill(text string) string {
	if len(s.values) == 0 {
		return text
	}
	return secretRef.ReplaceAllStringFunc(text, func(m string) string {
		name := secretRef.FindStringSubmatch(m)[1]
		if v, ok := s.values[name]; ok {
			return v
		}
		return m
	})
}

func (s *secrets) fillAction(a Action) Action {
	a.Text = s.fill(a.Text)
	a.URL = s.fill(a.URL)
	a.Option = s.fill(a.Option)
	return a
}
