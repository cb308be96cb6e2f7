package browser

import (
	"embed"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Page programs: every piece of JavaScript the browser runs in a page is a
// file of js/, one program a file, each a parenthesized function
// expression after a comment that says what it does. A Go variable holds
// each one, built by program at start-up; jsCall makes an expression that
// calls one with arguments, for Runtime.evaluate.
//
// A program that uses others names them in an ESLint globals comment,
// /* global settle, hit */: program binds each name to the program of
// that file, in a closure around it, so that the file stays plain
// JavaScript for any JS tool and the Go side never pastes sources
// together.

//go:embed js/*.js
var pageJS embed.FS

// globalsRE matches a program's /* global a, b */ comment.
var globalsRE = regexp.MustCompile(`(?m)^/\* global ([\w, ]+) \*/\n`)

// program returns the program of js/NAME.js, ready for
// Runtime.callFunctionOn (it evaluates to a function) or jsCall: its
// comment lines before the code left out, and the programs it names in
// its globals comment bound to their names. It panics when the file is
// missing, as a missing embedded file can only be a build mistake.
func program(name string) string {
	if p, ok := programs[name]; ok {
		return p
	}
	p := compose(name)
	programs[name] = p
	return p
}

// programs are the programs composed so far: a program several others use
// is composed once. program runs at start-up (package variables), one
// goroutine.
var programs = map[string]string{}

// compose is program without the memo.
func compose(name string) string {
	raw, err := pageJS.ReadFile("js/" + name + ".js")
	if err != nil {
		panic(fmt.Sprintf("browser: page program %s: %v", name, err))
	}
	src := string(raw)
	code := stripHeader(src)
	var uses []string
	// The globals comment is in the header: the code is not searched.
	if m := globalsRE.FindStringSubmatch(src[:len(src)-len(code)]); m != nil {
		for u := range strings.SplitSeq(m[1], ",") {
			uses = append(uses, strings.TrimSpace(u))
		}
	}
	if len(uses) == 0 {
		return code
	}
	var sb strings.Builder
	sb.WriteString("(function () {\n")
	for _, u := range uses {
		fmt.Fprintf(&sb, "const %s = (%s\n);\n", u, program(u))
	}
	fmt.Fprintf(&sb, "return (%s\n);\n})()", code)
	return sb.String()
}

// stripHeader leaves out the comment lines and blank lines before the code.
func stripHeader(src string) string {
	for {
		line, rest, ok := strings.Cut(src, "\n")
		t := strings.TrimSpace(line)
		if !ok || (t != "" && !strings.HasPrefix(t, "//") && !strings.HasPrefix(t, "/*")) {
			return strings.TrimRight(src, "\n")
		}
		src = rest
	}
}

// jsCall is an expression that calls the program fn with the arguments,
// each encoded as JSON.
func jsCall(fn string, args ...any) string {
	var sb strings.Builder
	sb.WriteString("(")
	sb.WriteString(fn)
	sb.WriteString("\n)(")
	for i, a := range args {
		if i > 0 {
			sb.WriteString(", ")
		}
		v, err := json.Marshal(a)
		if err != nil {
			panic(fmt.Sprintf("browser: page program argument %#v: %v", a, err)) // arguments are Go values of ours
		}
		sb.Write(v)
	}
	sb.WriteString(")")
	return sb.String()
}
