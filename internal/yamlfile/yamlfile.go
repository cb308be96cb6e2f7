// Package yamlfile reads the YAML files a user writes for webagent (an
// action policy, a price table) so that every mistake is told with its
// line: the line of a syntax error, and unknown fields refused with the
// field the user probably meant.
package yamlfile

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/webagent/webagent/internal/suggest"
)

// Error is a file that cannot be used, at a position: its message names
// the file and the line and says what to write instead. Packages policy
// and price give it as their Error, and the eval harness's dataset reader
// too.
type Error struct {
	// File is the file, or the flag a value came from; "" for none.
	File string
	// Line is the line of the file (from 1); 0 when no one line is meant.
	Line int
	// Msg says what is wrong and what to write instead.
	Msg string
	// Err is the error behind it (reading the file, YAML syntax), if any.
	Err error
}

func (e *Error) Error() string {
	switch {
	case e.File == "":
		return e.Msg
	case e.Line == 0:
		return e.File + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

var lineRE = regexp.MustCompile(`line (\d+)`)

// Line is the line a YAML syntax error names, 0 when it names none.
func Line(err error) int {
	if m := lineRE.FindStringSubmatch(err.Error()); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// Errorf makes an error at a node's line; each package gives its own.
type Errorf func(n *yaml.Node, format string, args ...any) error

// Fields walks the keys of a mapping node, what, in order: a key not in
// known is refused with the closest known name, at its line; each other
// key is handed to each, with its node and its value's.
func Fields(n *yaml.Node, what string, known []string, errf Errorf, each func(k, v *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return errf(n, "%s must be a mapping of %s", what, strings.Join(known, ", "))
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !slices.Contains(known, k.Value) {
			return errf(k, "unknown field %q%s", k.Value, suggest.Hint(k.Value, known, "fields"))
		}
		if err := each(k, v); err != nil {
			return err
		}
	}
	return nil
}
