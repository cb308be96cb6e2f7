package browser

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/webagent/webagent/contract"
)

// regionMax bounds the text read_region returns, in characters.
const regionMax = 20000

var regionPattern = regexp.MustCompile(`^\[?(?:region\s*=\s*)?(r\d+|f\d+(?:p\d+)?)\]?$`)

// regionJS returns the lines of a folded region of the latest snapshot
// (the walker keeps them), and whether there is such a region.
var regionJS = program("region")

// doReadRegion returns the whole text of a region the latest snapshot left
// out to fit its budget (its line ends with [region=rN]), or of a
// downloaded PDF (fN, or fNpM for its page M), at most regionMax
// characters.
func (o *op) doReadRegion(a contract.Action) (string, error) {
	handle := a.Ref
	m := regionPattern.FindStringSubmatch(strings.TrimSpace(handle))
	if m == nil {
		return "", contract.ActionErrorf("%q is not a region handle: give one such as r3, from a line of the latest snapshot that ends with [region=r3]", handle)
	}
	id := m[1]
	if id[0] == 'f' {
		return o.readFileRegion(id)
	}
	if t, ok := o.b.snap.docRegions[id]; ok {
		return "region " + id + ":\n" + cut(t, "read the pages of the document one by one"), nil
	}
	var res struct {
		Found bool
		Text  string
	}
	if err := o.evalValue(jsCall(regionJS, id), &res); err != nil {
		return "", err
	}
	if !res.Found {
		return "", contract.ActionErrorf("the latest snapshot has no region %s: take a new snapshot and use a handle from it", id)
	}
	return "region " + id + ":\n" + cut(res.Text, "use extract to read the page's text"), nil
}

// cut shortens t to regionMax characters, saying how many were left out
// and how to read them.
func cut(t, how string) string {
	if len(t) <= regionMax {
		return t
	}
	cutAt := regionMax
	for cutAt > 0 && !utf8.RuneStart(t[cutAt]) {
		cutAt--
	}
	return t[:cutAt] + fmt.Sprintf("\n… %d more characters not shown (%s)", len(t)-cutAt, how)
}
