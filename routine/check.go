package routine

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/dop251/goja"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/internal/suggest"
	"github.com/webagent/webagent/script"
)

// Problem is one mistake Check found: the file, its line (0 for the file
// as a whole) and what is wrong.
type Problem struct {
	File string
	Line int
	Msg  string
}

func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
	}
	return p.File + ": " + p.Msg
}

// Check validates a stored routine without a browser: its manifest (the
// format, the name, the parameters' schema), its current program and its
// draft, if any (the program parses; each function it calls is one a
// routine has; each params.NAME is a parameter; each secret is named in
// the manifest). No problems is nil.
func (s *Store) Check(name string) ([]Problem, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	dir := filepath.Join(s.dir, name)
	mpath := filepath.Join(dir, ManifestFile)
	data, err := os.ReadFile(mpath)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, s.notFound(name)
		}
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return []Problem{{File: mpath, Line: jsonLine(data, err), Msg: "not JSON: " + err.Error()}}, nil
	}
	probs := manifestProblems(mpath, name, m)
	files := []string{versionFile(m.Version)}
	if m.Draft != nil {
		files = append(files, DraftFile)
	}
	for _, f := range files {
		prog, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			probs = append(probs, Problem{File: filepath.Join(dir, f), Msg: err.Error()})
			continue
		}
		probs = append(probs, programProblems(filepath.Join(dir, f), m, string(prog))...)
	}
	return probs, nil
}

// Validate checks a routine's manifest and program as Check does; its
// error is an *Error (CodeInvalid) listing the problems.
func Validate(m Manifest, program string) error {
	probs := append(manifestProblems(ManifestFile, m.Name, m), programProblems(versionFile(m.Version), m, program)...)
	if len(probs) == 0 {
		return nil
	}
	var lines []string
	for _, p := range probs {
		lines = append(lines, p.String())
	}
	return &Error{Code: CodeInvalid, Line: probs[0].Line, Msg: strings.Join(lines, "; ")}
}

func jsonLine(data []byte, err error) int {
	var line int
	if _, e := fmt.Sscanf(jsonError(data, err), "line %d:", &line); e == nil {
		return line
	}
	return 0
}

func manifestProblems(path, name string, m Manifest) []Problem {
	var probs []Problem
	add := func(format string, args ...any) {
		probs = append(probs, Problem{File: path, Msg: fmt.Sprintf(format, args...)})
	}
	if m.Format != Format {
		add("format is %d; this webagent reads format %d", m.Format, Format)
	}
	if m.Name != name {
		add("name is %q but the routine's folder is %q; make them the same", m.Name, name)
	} else if err := CheckName(m.Name); err != nil {
		add("%v", err)
	}
	if m.Version < 1 {
		add("version must be 1 or more (it names the program: v1.js)")
	}
	if strings.TrimSpace(m.Description) == "" {
		add("description is empty: say what the routine does, for the model that chooses it")
	}
	if _, err := compileSchema(m.Parameters); err != nil {
		add("parameters is not a JSON Schema of an object: %v", err)
	}
	for _, s := range m.Secrets {
		if !secretName.MatchString(s) {
			add("secret %q: a secret's name is letters, digits and _.@:/-", s)
		}
	}
	return probs
}

// routineFuncs are the functions a routine's program may call besides its
// page tools: the script's own and the routine's.
var routineFuncs = []string{"snapshot", "log", "call", "start", "expect", "secret"}

// jsGlobals are the JavaScript functions and constructors a program may
// call.
var jsGlobals = []string{"String", "Number", "Boolean", "Array", "Object", "JSON", "Math", "Date", "RegExp", "Error", "TypeError",
	"RangeError", "parseInt", "parseFloat", "isNaN", "isFinite", "encodeURIComponent", "decodeURIComponent", "encodeURI", "decodeURI", "Symbol", "Map", "Set", "Promise"}

var (
	secretName = regexp.MustCompile(`^[A-Za-z0-9_.@:/-]+$`)
	callRE     = regexp.MustCompile(`(^|[^.\w$])([A-Za-z_$][\w$]*)\s*\(`)
	declRE     = regexp.MustCompile(`(?:function\s+([A-Za-z_$][\w$]*)|(?:var|let|const)\s+([A-Za-z_$][\w$]*)\s*=)`)
	paramRE    = regexp.MustCompile(`\bparams\.([A-Za-z_$][\w$]*)`)
	secretUse  = regexp.MustCompile(`^secret\(\s*["']([^"']*)["']\s*\)`)
	secretCall = regexp.MustCompile(`\bsecret\(`)
	keywords   = []string{"if", "for", "while", "switch", "catch", "function", "return", "typeof", "new", "do", "else", "in", "of", "void", "delete", "throw", "with", "case", "instanceof"}
)

// programProblems parses a program and checks the names it uses.
func programProblems(path string, m Manifest, prog string) []Problem {
	if _, err := goja.Compile(path, "(async function(){\n"+prog+"\n})()", true); err != nil {
		line, msg := compileLine(err.Error())
		return []Problem{{File: path, Line: line, Msg: "does not parse: " + msg}}
	}
	known := slices.Clone(routineFuncs)
	for _, t := range agent.ScriptTools() {
		known = append(known, script.FuncName(t.Name))
	}
	code := stripStrings(prog)
	for _, d := range declRE.FindAllStringSubmatch(code, -1) {
		known = append(known, d[1]+d[2])
	}
	params := paramNames(m.Parameters)
	var probs []Problem
	for i, line := range strings.Split(code, "\n") {
		n := i + 1
		for _, c := range callRE.FindAllStringSubmatch(line, -1) {
			name := c[2]
			if slices.Contains(known, name) || slices.Contains(jsGlobals, name) || slices.Contains(keywords, name) {
				continue
			}
			msg := fmt.Sprintf("%s is not a function a routine has", name)
			if s := suggest.Closest(name, known); s != "" {
				msg += fmt.Sprintf(" (did you mean %s?)", s)
			}
			probs = append(probs, Problem{File: path, Line: n, Msg: msg})
		}
		for _, p := range paramRE.FindAllStringSubmatch(line, -1) {
			if !slices.Contains(params, p[1]) {
				msg := fmt.Sprintf("params.%s is not a parameter (the parameters: %s)", p[1], strings.Join(params, ", "))
				if len(params) == 0 {
					msg = fmt.Sprintf("params.%s is not a parameter (the routine has none)", p[1])
				}
				probs = append(probs, Problem{File: path, Line: n, Msg: msg})
			}
		}
	}
	orig := strings.Split(prog, "\n")
	for i, line := range strings.Split(code, "\n") {
		// code has the same places as prog, its strings and comments
		// blanked: a call found there reads its name from prog.
		for _, at := range secretCall.FindAllStringIndex(line, -1) {
			s := secretUse.FindStringSubmatch(orig[i][at[0]:])
			if s != nil && !slices.Contains(m.Secrets, s[1]) {
				probs = append(probs, Problem{File: path, Line: i + 1, Msg: fmt.Sprintf("secret(%q) is not among the manifest's secrets (%s)", s[1], strings.Join(m.Secrets, ", "))})
			}
		}
	}
	return probs
}

// compileLine reads goja's "Line L:C message" (the program starts on the
// wrapper's second line).
func compileLine(msg string) (int, string) {
	i := strings.Index(msg, "Line ")
	if i < 0 {
		return 0, msg
	}
	var line, col int
	if n, _ := fmt.Sscanf(msg[i:], "Line %d:%d", &line, &col); n < 1 {
		return 0, msg
	}
	rest := msg[i:]
	if j := strings.Index(rest, " "); j >= 0 {
		if k := strings.Index(rest[j+1:], " "); k >= 0 {
			rest = strings.TrimSpace(rest[j+1+k:])
		}
	}
	return max(line-1, 1), rest
}

// stripStrings blanks string literals and comments, keeping the lines, so
// that names are read from code only.
func stripStrings(src string) string {
	b := []byte(src)
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			for ; i+1 < len(b) && (b[i] != '*' || b[i+1] != '/'); i++ {
				if b[i] != '\n' {
					b[i] = ' '
				}
			}
		case c == '"' || c == '\'' || c == '`':
			q := c
			for i++; i < len(b) && b[i] != q; i++ {
				if b[i] == '\\' && i+1 < len(b) {
					b[i] = ' '
					i++
				}
				if b[i] != '\n' {
					b[i] = ' '
				}
			}
		}
	}
	return string(b)
}
