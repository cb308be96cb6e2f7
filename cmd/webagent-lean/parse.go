package main

import (
	"cmp"
	"encoding/json"
	"os"
	"strconv"
	"strings"

	"github.com/webagent/webagent/session/wire"
)

// command is a browser command and its arguments in their order, as
// cmd/webagent's browserCommands has them (commands.go is written from
// them by cmd/webagent's TestLeanCommands).
type command struct {
	name, tool string
	params     []param
}

// param is one argument of a command: its name and its JSON type.
type param struct{ name, typ string }

// handedOver are the commands webagent-full always runs: sessions reads
// the folder, script reads a file or standard input.
var handedOver = map[string]bool{"sessions": true, "script": true}

// parse reads a browser command's arguments as cmd/webagent's
// parseBrowserCommand does; ok is false for anything it does not handle
// exactly so (webagent-full runs those).
func parse(args []string) (call, bool) {
	i := -1
	for j, c := range commands {
		if c.name == args[0] {
			i = j
		}
	}
	if i < 0 || handedOver[args[0]] {
		return call{}, false
	}
	c := call{cmd: commands[i], args: map[string]any{}}
	var pos []string
	for rest := args[1:]; len(rest) > 0; {
		a := rest[0]
		rest = rest[1:]
		if !strings.HasPrefix(a, "-") {
			pos = append(pos, a)
			continue
		}
		n, ok := c.flag(a, &rest)
		if !ok {
			return call{}, false
		}
		rest = rest[n:]
	}
	if !fillPositionals(c.cmd, pos, c.args) {
		return call{}, false
	}
	if _, ok := c.args["op"]; c.cmd.tool == "tabs" && !ok {
		c.args["op"] = "list" // tabs alone lists them
	}
	c.session = cmp.Or(c.session, os.Getenv("WEBAGENT_SESSION"), "default")
	c.agent = cmp.Or(c.agent, os.Getenv("WEBAGENT_AGENT"), "default")
	if wire.CheckName("session", c.session) != nil || wire.CheckName("agent", c.agent) != nil {
		return call{}, false
	}
	return c, true
}

// flag reads one flag, a; n is how many of rest it took as its value, ok
// false for a flag the lean front does not know.
func (c *call) flag(a string, rest *[]string) (n int, ok bool) {
	name, val, hasVal := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
	value := func() (string, bool) {
		switch {
		case hasVal:
			return val, true
		case len(*rest) > 0:
			n = 1
			return (*rest)[0], true
		}
		return "", false
	}
	switch name {
	case "json":
		b, err := strconv.ParseBool(cmp.Or(val, "true"))
		c.json = b
		return 0, err == nil && (!hasVal || val != "")
	case "session", "agent":
		v, ok := value()
		if !ok {
			return 0, false
		}
		if name == "session" {
			c.session = v
		} else {
			c.agent = v
		}
		return n, true
	}
	for _, p := range c.cmd.params {
		if strings.ReplaceAll(p.name, "_", "-") != name || name == "" {
			continue
		}
		if p.typ == "boolean" {
			b, err := strconv.ParseBool(cmp.Or(val, "true"))
			c.args[p.name] = b
			return 0, err == nil && (!hasVal || val != "")
		}
		v, ok := value()
		if !ok {
			return 0, false
		}
		if p.typ == "array" {
			prev, _ := c.args[p.name].([]any)
			c.args[p.name] = append(prev, v)
			return n, true
		}
		x, ok := argValue(p, v)
		c.args[p.name] = x
		return n, ok
	}
	return 0, false
}

// argValue converts a command-line value to the argument's JSON type.
func argValue(p param, v string) (any, bool) {
	switch p.typ {
	case "integer":
		n, err := strconv.Atoi(v)
		return n, err == nil
	case "number":
		f, err := strconv.ParseFloat(v, 64)
		return f, err == nil
	case "boolean":
		b, err := strconv.ParseBool(v)
		return b, err == nil
	case "object":
		var m map[string]any
		err := json.Unmarshal([]byte(v), &m)
		return m, err == nil
	}
	if p.name == "ref" || strings.HasSuffix(p.name, "_ref") {
		v = strings.TrimPrefix(v, "@") // @e12, as other tools write refs
	}
	return v, true
}

// fillPositionals gives the positional arguments to the parameters not
// given as flags, in the command's order; an array takes all that are
// left. It is false when one is left over or does not convert.
func fillPositionals(c command, pos []string, args map[string]any) bool {
	for _, p := range c.params {
		if len(pos) == 0 {
			break
		}
		if _, given := args[p.name]; given {
			continue
		}
		if p.typ == "array" {
			var vals []any
			for _, v := range pos {
				vals = append(vals, v)
			}
			args[p.name], pos = vals, nil
			break
		}
		v, ok := argValue(p, pos[0])
		if !ok {
			return false
		}
		args[p.name], pos = v, pos[1:]
	}
	return len(pos) == 0
}
