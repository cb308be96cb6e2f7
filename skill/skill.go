// Package skill holds webagent's skill for coding agents (SKILL.md, in the
// Agent Skills format: front matter with a name and a description, then
// instructions): how to drive webagent browser step by step, when to hand
// a whole task to webagent run, and what each exit status means.
package skill

import (
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Name is the skill's name, and the folder Install writes it in.
const Name = "webagent-browser"

//go:embed SKILL.md
var text string

// Text returns SKILL.md.
func Text() string { return text }

// Install writes SKILL.md into dir/Name (a skills folder such as
// ~/.claude/skills), creating the folder, and returns the file's path. An
// existing SKILL.md there is replaced: it is this skill's, of another
// version.
func Install(dir string) (string, error) {
	if dir == "" {
		return "", errors.New("skill: no folder given")
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("skill: %s is not a folder; create it first", dir)
	}
	sub := filepath.Join(dir, Name)
	if err := os.MkdirAll(sub, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(sub, "SKILL.md")
	return path, os.WriteFile(path, []byte(text), 0o644)
}
