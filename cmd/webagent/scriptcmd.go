package main

import (
	"io"
	"os"
	"strings"
)

// maxProgram bounds a script's program read from a file or standard input.
const maxProgram = 1 << 20

// readProgram replaces a script command's FILE (or -, standard input) by
// the program it holds.
func readProgram(args map[string]any) error {
	name, _ := args["code"].(string)
	if name == "" {
		return usagef("browser script needs a file holding the program, or - to read it from standard input")
	}
	var r io.Reader
	if name == "-" {
		r = os.Stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return usagef("browser script: %v; give a file holding the program, or - for standard input", err)
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxProgram+1))
	switch {
	case err != nil:
		return usagef("browser script: reading the program: %v", err)
	case len(b) > maxProgram:
		return usagef("browser script: the program is over %d bytes", maxProgram)
	case len(strings.TrimSpace(string(b))) == 0:
		return usagef("browser script: the program %s is empty", name)
	}
	args["code"] = string(b)
	return nil
}
