package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// cmdVersion prints the module version and the commit the binary was built
// from, as the Go toolchain recorded them (go build in a git checkout, or
// go install module@version).
func cmdVersion(args []string, stdout io.Writer) (int, error) {
	if len(args) > 0 {
		return exitUsage, usagef("version takes no arguments")
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		fmt.Fprintln(stdout, "webagent (no build information)")
		return exitOK, nil
	}
	fmt.Fprintln(stdout, versionLine(bi))
	return exitOK, nil
}

// versionLine says which build bi is. The commit is recorded by go build
// in a git checkout (not in a git worktree, whose .git is a file, nor with
// -buildvcs=false).
func versionLine(bi *debug.BuildInfo) string {
	version := bi.Main.Version
	if version == "" {
		version = "(devel)"
	}
	var rev, when, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = " (modified)"
			}
		}
	}
	line := fmt.Sprintf("webagent %s %s", bi.Main.Path, version)
	if rev != "" {
		line += fmt.Sprintf(", commit %s%s", rev, dirty)
		if when != "" {
			line += " of " + when
		}
	} else {
		line += ", commit unknown (built outside a git checkout)"
	}
	return line + ", " + bi.GoVersion
}
