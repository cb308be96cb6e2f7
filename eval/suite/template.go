package suite

import (
	"fmt"
	"regexp"
	"strings"
)

// Templates in step text: {{/REGEX/}} is replaced by the first match of
// REGEX in the latest observation (its first group when it has one).
var templateRe = regexp.MustCompile(`\{\{/(.*?)/\}\}`)

func checkTemplates(s string) error {
	for _, m := range templateRe.FindAllStringSubmatch(s, -1) {
		if _, err := regexp.Compile(m[1]); err != nil {
			return fmt.Errorf("bad pattern in {{/%s/}}: %v", m[1], err)
		}
	}
	if strings.Contains(templateRe.ReplaceAllString(s, ""), "{{") {
		return fmt.Errorf(`"{{" starts no template; write {{/REGEX/}} to insert text matched on the page`)
	}
	return nil
}

// expand fills the templates of s from the observation.
func expand(s, obs string) (string, error) {
	var err error
	out := templateRe.ReplaceAllStringFunc(s, func(m string) string {
		pat := templateRe.FindStringSubmatch(m)[1]
		re := regexp.MustCompile(pat) // checked at load
		sub := re.FindStringSubmatch(obs)
		switch {
		case sub == nil:
			if err == nil {
				err = fmt.Errorf("nothing on the page matches /%s/", pat)
			}
			return m
		case len(sub) > 1:
			return sub[1]
		default:
			return sub[0]
		}
	})
	return out, err
}
