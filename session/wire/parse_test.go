package wire

import (
	"errors"
	"flag"
	"reflect"
	"strings"
	"testing"
)

// parseCommands are a few commands of every argument type.
var parseCommands = []Command{
	{Name: "snapshot", Tool: "snapshot", Params: []Param{{Name: "diff", Type: "boolean"}}},
	{Name: "type", Tool: "type", Params: []Param{{Name: "ref", Type: "string", Required: true}, {Name: "text", Type: "string", Required: true},
		{Name: "submit", Type: "boolean"}}},
	{Name: "drag", Tool: "drag", Params: []Param{{Name: "ref", Type: "string"}, {Name: "to_ref", Type: "string"}, {Name: "dx", Type: "integer"}}},
	{Name: "upload", Tool: "upload", Params: []Param{{Name: "ref", Type: "string", Required: true}, {Name: "files", Type: "array"}}},
	{Name: "page-tool", Tool: "page_tool", Params: []Param{{Name: "name", Type: "string"}, {Name: "arguments", Type: "object"}}},
	{Name: "tabs", Tool: "tabs", Params: []Param{{Name: "op", Type: "string"}, {Name: "tab", Type: "string"}}},
	{Name: "status", Tool: "status"},
}

// TestParse: the parser both fronts share reads the command before or
// after its flags, arguments by position or as flags, and refuses with the
// error that says what is wrong.
func TestParse(t *testing.T) {
	t.Setenv("WEBAGENT_SESSION", "")
	t.Setenv("WEBAGENT_AGENT", "")
	p := Parser{Commands: parseCommands, Flags: Flags}
	for _, c := range []struct {
		args    []string
		want    Call   // Command is checked by its name
		wantErr string // a part of the error's text; "" none
	}{
		{args: []string{"snapshot"}, want: Call{Command: Command{Name: "snapshot"}, Args: map[string]any{}, Session: "default", Agent: "default"}},
		{args: []string{"snapshot", "--diff", "--json"}, want: Call{Command: Command{Name: "snapshot"}, Args: map[string]any{"diff": true},
			Session: "default", Agent: "default", JSON: true}},
		{args: []string{"--session", "s1", "snapshot"}, want: Call{Command: Command{Name: "snapshot"}, Args: map[string]any{}, Session: "s1", Agent: "default"}},
		{args: []string{"--json", "--session=s1", "--agent", "a2", "status"}, want: Call{Command: Command{Name: "status"}, Args: map[string]any{},
			Session: "s1", Agent: "a2", JSON: true}},
		{args: []string{"type", "@e3", "alice", "--submit"}, want: Call{Command: Command{Name: "type"},
			Args: map[string]any{"ref": "e3", "text": "alice", "submit": true}, Session: "default", Agent: "default"}},
		{args: []string{"--session", "s1", "type", "--text", "bob", "e3"}, want: Call{Command: Command{Name: "type"},
			Args: map[string]any{"ref": "e3", "text": "bob"}, Session: "s1", Agent: "default"}},
		{args: []string{"type", "e3", "--", "--not-a-flag"}, want: Call{Command: Command{Name: "type"},
			Args: map[string]any{"ref": "e3", "text": "--not-a-flag"}, Session: "default", Agent: "default"}},
		{args: []string{"drag", "e1", "--to-ref", "@e2", "--dx=5"}, want: Call{Command: Command{Name: "drag"},
			Args: map[string]any{"ref": "e1", "to_ref": "e2", "dx": 5}, Session: "default", Agent: "default"}},
		{args: []string{"upload", "e4", "a.txt", "b.txt"}, want: Call{Command: Command{Name: "upload"},
			Args: map[string]any{"ref": "e4", "files": []any{"a.txt", "b.txt"}}, Session: "default", Agent: "default"}},
		{args: []string{"upload", "e4", "--files", "a.txt", "--files", "b.txt"}, want: Call{Command: Command{Name: "upload"},
			Args: map[string]any{"ref": "e4", "files": []any{"a.txt", "b.txt"}}, Session: "default", Agent: "default"}},
		{args: []string{"page-tool", "add", `{"sku":"B-12"}`}, want: Call{Command: Command{Name: "page-tool"},
			Args: map[string]any{"name": "add", "arguments": map[string]any{"sku": "B-12"}}, Session: "default", Agent: "default"}},
		{args: []string{"tabs"}, want: Call{Command: Command{Name: "tabs"}, Args: map[string]any{"op": "list"}, Session: "default", Agent: "default"}},
		{args: []string{"tabs", "switch", "t2"}, want: Call{Command: Command{Name: "tabs"}, Args: map[string]any{"op": "switch", "tab": "t2"},
			Session: "default", Agent: "default"}},

		{args: []string{"--session", "s1"}, wantErr: ErrNoCommand.Error()},
		{args: []string{"--session", "s1", "--", "snapshot"}, wantErr: ErrNoCommand.Error()},
		{args: []string{"snapshott"}, wantErr: `unknown browser command "snapshott"; the commands are snapshot, type,`},
		{args: []string{"snapshot", "--bogus"}, wantErr: "flag provided but not defined: -bogus"},
		{args: []string{"snapshot", "--help"}, wantErr: flag.ErrHelp.Error()},
		{args: []string{"snapshot", "--json="}, wantErr: `invalid boolean value "" for -json`},
		{args: []string{"type", "e3"}, want: Call{Command: Command{Name: "type"}, Args: map[string]any{"ref": "e3"}, Session: "default", Agent: "default"}},
		{args: []string{"type", "e3", "a", "true", "b"}, wantErr: `browser type takes REF TEXT [SUBMIT]; "b" is one argument too many (see 'webagent browser type --help')`},
		{args: []string{"drag", "e1", "e2", "five"}, wantErr: `browser drag: dx wants a whole number, got "five"`},
		{args: []string{"drag", "--dx", "five"}, wantErr: `invalid value "five" for flag -dx: dx wants a whole number`},
		{args: []string{"page-tool", "add", "{"}, wantErr: "arguments wants a JSON object"},
		{args: []string{"snapshot", "--session", "a b"}, wantErr: `--session: session name "a b"`},
		{args: []string{"--agent=-x", "snapshot"}, wantErr: `--agent: agent name "-x"`},
	} {
		name := strings.Join(c.args, " ")
		got, err := p.Parse(c.args)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("Parse(%s): error %v, want one with %q", name, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%s): %v", name, err)
			continue
		}
		if got.Command.Name != c.want.Command.Name {
			t.Errorf("Parse(%s): command %q, want %q", name, got.Command.Name, c.want.Command.Name)
		}
		got.Command = c.want.Command
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Parse(%s) = %+v, want %+v", name, got, c.want)
		}
	}
}

// TestParseErrors: the parser's own errors are typed, so that a front
// can say more (did you mean) or hand the line over.
func TestParseErrors(t *testing.T) {
	t.Setenv("WEBAGENT_SESSION", "bad name")
	p := Parser{Commands: parseCommands, Flags: Flags}
	if _, err := p.Parse([]string{"--json"}); !errors.Is(err, ErrNoCommand) {
		t.Errorf("flags alone: %v, want ErrNoCommand", err)
	}
	var unknown *UnknownCommandError
	if _, err := p.Parse([]string{"snap"}); !errors.As(err, &unknown) || unknown.Name != "snap" || len(unknown.Names) != len(parseCommands) {
		t.Errorf("an unknown command: %#v", err)
	}
	var bad *ArgsError
	if _, err := p.Parse([]string{"snapshot"}); !errors.As(err, &bad) || !strings.Contains(bad.Msg, "--session") {
		t.Errorf("$WEBAGENT_SESSION with a space: %v, want an ArgsError about --session", err)
	}
	t.Setenv("WEBAGENT_SESSION", "from-env")
	if c, err := p.Parse([]string{"snapshot"}); err != nil || c.Session != "from-env" {
		t.Errorf("$WEBAGENT_SESSION: session %q, %v", c.Session, err)
	}
	if c, err := p.Parse([]string{"snapshot", "--session", "flag"}); err != nil || c.Session != "flag" {
		t.Errorf("--session over $WEBAGENT_SESSION: session %q, %v", c.Session, err)
	}
}
