package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/webagent/webagent/internal/suggest"
	"github.com/webagent/webagent/session/wire"
)

// printFlags writes a flag set's flags as README writes them: --name.
// It replaces flag.PrintDefaults, which prints -name.
func printFlags(fs *flag.FlagSet) {
	printFlagsWhere(fs, func(string) bool { return true })
}

// printFlagsWhere writes the flags of fs whose names keep keeps.
func printFlagsWhere(fs *flag.FlagSet, keep func(name string) bool) {
	w := fs.Output()
	fs.VisitAll(func(f *flag.Flag) {
		if !keep(f.Name) {
			return
		}
		name, usage := flag.UnquoteUsage(f)
		line := "  --" + f.Name
		if name != "" {
			line += " " + name
		}
		fmt.Fprintf(w, "%s\n    \t%s", line, strings.ReplaceAll(usage, "\n", "\n    \t"))
		if def := f.DefValue; def != "" && def != "0" && def != "false" && def != "0s" && def != "[]" {
			if _, isString := f.Value.(interface{ IsStringFlag() bool }); isString || name == "string" {
				def = fmt.Sprintf("%q", def)
			}
			fmt.Fprintf(w, " (default %s)", def)
		}
		fmt.Fprintln(w)
	})
}

// The flag package's parse errors, to be reworded.
var (
	errUnknownFlag = regexp.MustCompile(`^flag provided but not defined: -+(.+)$`)
	errBadValue    = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-+([^:]+): (.*)$`)
	errNeedsArg    = regexp.MustCompile(`^flag needs an argument: -+(.+)$`)
)

// flagError rewords a flag-parsing error of fs: flags written --name, an
// example for a duration without a unit, and "did you mean" for an unknown
// flag.
func flagError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if m := errUnknownFlag.FindStringSubmatch(msg); m != nil {
		s := fmt.Sprintf("unknown flag --%s", m[1])
		if near := closest(m[1], flagNames(fs)); near != "" {
			s += fmt.Sprintf("; did you mean --%s?", near)
		}
		return s
	}
	if m := errNeedsArg.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("--%s needs a value, e.g. --%s VALUE", m[1], m[1])
	}
	if m := errBadValue.FindStringSubmatch(msg); m != nil {
		val, name, why := m[1], m[2], m[3]
		if f := fs.Lookup(name); f != nil {
			if g, ok := f.Value.(flag.Getter); ok {
				switch g.Get().(type) {
				case time.Duration:
					if _, err := time.ParseDuration(val); err == nil {
						// A duration, out of the flag's range.
						return fmt.Sprintf("--%s is %s; %s", name, val, why)
					}
					if isNumber(val) {
						return fmt.Sprintf("--%s %q is not a duration; use a unit, e.g. %ss or %sm (units: ms, s, m, h)", name, val, val, val)
					}
					return fmt.Sprintf("--%s %q is not a duration; write a number and a unit, e.g. 90s or 2m (units: ms, s, m, h)", name, val)
				case bool:
					return fmt.Sprintf("--%s=%s is not true or false", name, val)
				}
			}
		}
		if name == "secret" || name == "extra-header" {
			// The value may hold the secret; Set's message shows only
			// its name.
			return why
		}
		return fmt.Sprintf("--%s %q is not valid: %s", name, val, why)
	}
	return msg
}

var number = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)

func isNumber(s string) bool { return number.MatchString(s) }

func flagNames(fs *flag.FlagSet) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

// closest is the candidate nearest to word by edit distance, if it is near
// enough to be a typo (or word is a prefix of only it); "" otherwise.
func closest(word string, candidates []string) string {
	best, bestD := "", 0
	var prefixed []string
	for _, c := range candidates {
		if strings.HasPrefix(c, word) {
			prefixed = append(prefixed, c)
		}
		d := suggest.Distance(word, c)
		if best == "" || d < bestD {
			best, bestD = c, d
		}
	}
	if len(prefixed) == 1 && len(word) >= 2 {
		return prefixed[0]
	}
	if best != "" && bestD <= suggest.Near(len(word)) {
		return best
	}
	return ""
}

// writeHelp prints a flag set's help to w.
func writeHelp(fs *flag.FlagSet, w io.Writer) {
	fs.SetOutput(w)
	fs.Usage()
}

// parseFlags parses a command's flags. On -h it prints the command's help
// to stdout and returns flag.ErrHelp, which realMain turns into exit 0.
func parseFlags(fs *flag.FlagSet, args []string, stdout io.Writer) ([]string, error) {
	fs.SetOutput(io.Discard)
	if err := spacedWord(fs, args); err != nil {
		return nil, err
	}
	pos, err := wire.ParseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stdout)
		fs.Usage()
		return nil, err
	}
	if err != nil {
		return nil, usagef("%s (see 'webagent help %s')", flagError(fs, err), fs.Name())
	}
	if err := applyConfig(fs); err != nil {
		return nil, err
	}
	return pos, nil
}

// wordFlag is a flag that stands alone as a bool and also takes words
// (--vision, --vision=marks).
type wordFlag interface{ Words() []string }

// spacedWord refuses a word value written after a space (--vision marks):
// the flag would be read as true and the word as an argument, which for
// run is the start of the task and for eval a task file.
func spacedWord(fs *flag.FlagSet, args []string) error {
	for i := 0; i+1 < len(args) && args[i] != "--"; i++ {
		f := fs.Lookup(strings.TrimLeft(args[i], "-"))
		if f == nil || !strings.HasPrefix(args[i], "-") {
			continue
		}
		if w, ok := f.Value.(wordFlag); ok && slices.Contains(w.Words(), args[i+1]) {
			return usagef("%s %s: write %s=%s (a word value of -%s follows an '=', not a space)", args[i], args[i+1], args[i], args[i+1], f.Name)
		}
	}
	return nil
}

// listFlag is a repeatable flag whose values may also be comma lists.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}
