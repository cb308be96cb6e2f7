package browser

import (
	"strings"

	"github.com/webagent/webagent/contract"
)

// doPress presses a.Key, a key or a chord, on the focused element.
func (o *op) doPress(a contract.Action) (string, error) {
	keys := a.Key
	b := o.b
	c, err := parseChord(keys)
	if err != nil {
		return "", err
	}
	s0 := b.nav.state()
	if err := o.press(c); err != nil {
		return "", err
	}
	nav, err := o.afterInput(s0, inputGrace)
	if err != nil {
		return "", err
	}
	return "pressed " + strings.TrimSpace(keys) + nav, nil
}
