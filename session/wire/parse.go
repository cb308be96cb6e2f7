package wire

import (
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// The parser of webagent browser's command lines, the one cmd/webagent and
// cmd/webagent-lean share: the command's name before or after its flags,
// its arguments by position or as flags, --session and --agent with their
// defaults from the environment.

// Command is one command of webagent browser: its name on the command
// line, the tool (or the session's own command) it runs, and its
// arguments in their order.
type Command struct {
	Name, Tool string
	Params     []Param
}

// Param is one argument of a command: its name, its JSON type (string,
// integer, number, boolean, array of strings, object), whether it must be
// given, and what it is. Its fields are agent.Param's, in their order.
type Param struct {
	Name     string
	Type     string
	Required bool
	Desc     string
}

// Positionals shows the command's arguments in their order, as its usage
// line does: " REF TEXT [SUBMIT]".
func (c Command) Positionals() string {
	var sb strings.Builder
	for _, p := range c.Params {
		n := strings.ToUpper(strings.ReplaceAll(p.Name, "_", "-"))
		if p.Type == "array" {
			n += "..."
		}
		if p.Required {
			sb.WriteString(" " + n)
		} else {
			sb.WriteString(" [" + n + "]")
		}
	}
	return sb.String()
}

// Call is a browser command as its command line gives it.
type Call struct {
	Command Command
	// Args are the tool's arguments, as the model would send them.
	Args map[string]any
	// Session and Agent are the names, their defaults applied and checked.
	Session, Agent string
	// JSON is --json's value, when the command has the flag.
	JSON bool
}

// Parser reads webagent browser's command lines.
type Parser struct {
	Commands []Command
	// Flags is the flag set of command c and the map its arguments' flags
	// (RegisterArgs) write into. Parse reads --session, --agent and --json
	// from the set by name, where it has them. It is called for every
	// command when flags come before the name (to know which take a
	// value), then, last, for the command the line names.
	Flags func(c Command) (*flag.FlagSet, map[string]any)
	// ParseFlags parses what follows the command's name with its flag set
	// and returns the positional arguments; nil is ParseInterleaved, the
	// set's output thrown away.
	ParseFlags func(fs *flag.FlagSet, args []string) ([]string, error)
}

// ErrNoCommand is Parse's error for a line of flags alone.
var ErrNoCommand = errors.New("browser: no command given, only flags")

// UnknownCommandError is Parse's error for a name that is no command.
type UnknownCommandError struct {
	Name  string
	Names []string // the commands there are
}

func (e *UnknownCommandError) Error() string {
	return fmt.Sprintf("unknown browser command %q; the commands are %s", e.Name, strings.Join(e.Names, ", "))
}

// ArgsError is Parse's error for arguments the command cannot take: one
// too many, a value of the wrong type, a bad session or agent name. Its
// text says how to fix it.
type ArgsError struct{ Msg string }

func (e *ArgsError) Error() string { return e.Msg }

// Parse reads a browser command line, the words after "browser". The
// errors of ParseFlags come back as they are; Parse's own are
// ErrNoCommand, *UnknownCommandError and *ArgsError.
func (p Parser) Parse(args []string) (Call, error) {
	args, named := p.commandFirst(args)
	if !named {
		return Call{}, ErrNoCommand
	}
	i := slices.IndexFunc(p.Commands, func(c Command) bool { return c.Name == args[0] })
	if i < 0 {
		names := make([]string, len(p.Commands))
		for i, c := range p.Commands {
			names[i] = c.Name
		}
		return Call{}, &UnknownCommandError{Name: args[0], Names: names}
	}
	c := Call{Command: p.Commands[i]}
	fs, argMap := p.Flags(c.Command)
	c.Args = argMap
	parse := p.ParseFlags
	if parse == nil {
		parse = func(fs *flag.FlagSet, args []string) ([]string, error) {
			fs.SetOutput(io.Discard)
			return ParseInterleaved(fs, args)
		}
	}
	pos, err := parse(fs, args[1:])
	if err != nil {
		return c, err
	}
	if err := fillPositionals(c.Command, pos, c.Args); err != nil {
		return c, err
	}
	if _, ok := c.Args["op"]; c.Command.Tool == "tabs" && !ok {
		c.Args["op"] = "list" // tabs alone lists them
	}
	value := func(name string) string {
		if f := fs.Lookup(name); f != nil {
			return f.Value.String()
		}
		return ""
	}
	c.Session = cmp.Or(value("session"), os.Getenv("WEBAGENT_SESSION"), "default")
	c.Agent = cmp.Or(value("agent"), os.Getenv("WEBAGENT_AGENT"), "default")
	c.JSON = value("json") == "true"
	if err := CheckName("session", c.Session); err != nil {
		return c, &ArgsError{"--session: " + err.Error()}
	}
	if err := CheckName("agent", c.Agent); err != nil {
		return c, &ArgsError{"--agent: " + err.Error()}
	}
	return c, nil
}

// commandFirst moves the command's name to the front of args: flags may
// come before it (webagent browser --session s1 snapshot) as after it.
// named is false when args name no command.
func (p Parser) commandFirst(args []string) (out []string, named bool) {
	if len(args) == 0 || !strings.HasPrefix(args[0], "-") {
		return args, len(args) > 0
	}
	// Which flags take a value, to step over it: those of any command.
	takesValue := map[string]bool{}
	for _, c := range p.Commands {
		fs, _ := p.Flags(c)
		fs.VisitAll(func(f *flag.Flag) {
			b, isBool := f.Value.(interface{ IsBoolFlag() bool })
			takesValue[f.Name] = !isBool || !b.IsBoolFlag()
		})
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return args, false
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			return slices.Concat([]string{a}, args[:i], args[i+1:]), true
		}
		name, _, withValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !withValue && takesValue[name] {
			i++
		}
	}
	return args, false
}

// ParseInterleaved parses fs's flags wherever they stand among the
// positional arguments, which it returns in their order; after "--" all
// are positional.
func ParseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// Flags is the smallest flag set of command c: --session, --agent, --json
// and its arguments (the lean front's; the whole program's sets add the
// browser's and the session's flags).
func Flags(c Command) (*flag.FlagSet, map[string]any) {
	fs := flag.NewFlagSet("browser", flag.ContinueOnError)
	fs.String("session", "", "the session to use")
	fs.String("agent", "", "act as this agent")
	fs.Bool("json", false, "print one JSON object")
	args := map[string]any{}
	RegisterArgs(fs, c, args)
	return fs, args
}

// RegisterArgs registers the command's arguments as flags, writing into
// args: a boolean as a boolean flag, an array as a repeatable one.
func RegisterArgs(fs *flag.FlagSet, c Command, args map[string]any) {
	for _, p := range c.Params {
		flagName := strings.ReplaceAll(p.Name, "_", "-")
		usage := p.Desc
		switch p.Type {
		case "boolean":
			fs.BoolFunc(flagName, usage, func(v string) error {
				b, err := strconv.ParseBool(v)
				args[p.Name] = b
				return err
			})
		case "array":
			fs.Func(flagName, usage+" (repeatable)", func(v string) error {
				prev, _ := args[p.Name].([]any)
				args[p.Name] = append(prev, v)
				return nil
			})
		default:
			fs.Func(flagName, usage, func(v string) error {
				val, err := ArgValue(p, v)
				args[p.Name] = val
				return err
			})
		}
	}
}

// ArgValue converts a command-line value to the argument's JSON type.
func ArgValue(p Param, v string) (any, error) {
	switch p.Type {
	case "integer":
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, fmt.Errorf("%s wants a whole number, got %q", p.Name, v)
		}
		return n, nil
	case "number":
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil, fmt.Errorf("%s wants a number, got %q", p.Name, v)
		}
		return f, nil
	case "boolean":
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("%s wants true or false, got %q", p.Name, v)
		}
		return b, nil
	case "object":
		var m map[string]any
		if err := json.Unmarshal([]byte(v), &m); err != nil {
			return nil, fmt.Errorf(`%s wants a JSON object, e.g. '{"sku":"B-12"}', got %q`, p.Name, v)
		}
		return m, nil
	}
	if p.Name == "ref" || strings.HasSuffix(p.Name, "_ref") {
		v = strings.TrimPrefix(v, "@") // @e12, as other tools write refs
	}
	return v, nil
}

// fillPositionals gives the positional arguments to the parameters not
// given as flags, in the command's order; an array takes all that are
// left.
func fillPositionals(c Command, pos []string, args map[string]any) error {
	for _, p := range c.Params {
		if len(pos) == 0 {
			break
		}
		if _, given := args[p.Name]; given {
			continue
		}
		if p.Type == "array" {
			var vals []any
			for _, v := range pos {
				vals = append(vals, v)
			}
			args[p.Name], pos = vals, nil
			break
		}
		v, err := ArgValue(p, pos[0])
		if err != nil {
			return &ArgsError{fmt.Sprintf("browser %s: %v", c.Name, err)}
		}
		args[p.Name], pos = v, pos[1:]
	}
	if len(pos) > 0 {
		return &ArgsError{fmt.Sprintf("browser %s takes%s; %q is one argument too many (see 'webagent browser %s --help')",
			c.Name, c.Positionals(), pos[0], c.Name)}
	}
	return nil
}
