package skill_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/skill"
)

// The skill has the front matter the Agent Skills format asks for, and
// names every page tool as the browser command it is.
func TestSkillFormat(t *testing.T) {
	text := skill.Text()
	front, _, ok := strings.Cut(strings.TrimPrefix(text, "---\n"), "\n---\n")
	if !strings.HasPrefix(text, "---\n") || !ok {
		t.Fatal("SKILL.md has no front matter")
	}
	if !strings.Contains(front, "name: "+skill.Name+"\n") || !strings.Contains(front, "description: ") {
		t.Errorf("front matter without name or description:\n%s", front)
	}
	for _, pt := range agent.PageTools() {
		name := strings.ReplaceAll(pt.Def.Name, "_", "-")
		if name == "goto" {
			name = "open"
		}
		if !strings.Contains(text, "`"+name) {
			t.Errorf("SKILL.md does not name the command %s", name)
		}
	}
}

func TestInstall(t *testing.T) {
	dir := t.TempDir()
	path, err := skill.Install(dir)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != skill.Text() || path != filepath.Join(dir, skill.Name, "SKILL.md") {
		t.Errorf("installed %s: %v", path, err)
	}
	if _, err := skill.Install(filepath.Join(dir, "missing")); err == nil {
		t.Error("installing into a missing folder did not fail")
	}
}

func ExampleInstall() {
	dir, _ := os.MkdirTemp("", "skills")
	defer os.RemoveAll(dir)
	path, err := skill.Install(dir) // e.g. ~/.claude/skills
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(filepath.Base(filepath.Dir(path)), filepath.Base(path))
	// Output: webagent-browser SKILL.md
}
