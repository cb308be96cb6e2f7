package routine_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webagent/webagent/routine"
)

// handMade stores a routine as a person would write it: its manifest and
// its program.
func handMade(t testing.TB, dir, name, program string) *routine.Store {
	t.Helper()
	m := routine.Manifest{Format: routine.Format, Name: name, Description: "Add a customer.", Version: 1,
		Parameters: json.RawMessage(`{"type":"object","properties":{"full_name":{"type":"string"}},"required":["full_name"]}`),
		Secrets:    []string{"customer_pw"}, Source: routine.Source{Run: "by hand", Created: "2026-11-29T00:00:00Z"}}
	if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
		t.Fatal(err)
	}
	data, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, name, routine.ManifestFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name, "v1.js"), []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := routine.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestCheckNamesTheLine: a hand-edited routine with mistakes; Check names
// each line, and a well-written one has none.
func TestCheckNamesTheLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := `start("http://127.0.0.1:8080/customers/new");
// a person's note: "clik" in a comment is no call
type({role: "textbox", name: "Full name"}, params.full_name);
type({role: "textbox", name: "Password"}, secret("customer_pw"));
click({role: "button", name: "Next (clik)"});
return expect({text: "added"});
`
	s := handMade(t, dir, "good", good)
	if probs, err := s.Check("good"); err != nil || len(probs) != 0 {
		t.Fatalf("a good routine: %v %v", probs, err)
	}
	cases := []struct{ name, line, want string }{
		{"typo", `clik({role: "button", name: "Next"});`, `v1.js:5: clik is not a function a routine has (did you mean click?)`},
		{"param", `type({role: "textbox", name: "Email"}, params.fullname);`, `v1.js:5: params.fullname is not a parameter (the parameters: full_name)`},
		{"secret", `type({role: "textbox", name: "Email"}, secret("admin_pw"));`, `v1.js:5: secret("admin_pw") is not among the manifest's secrets (customer_pw)`},
		{"syntax", `click({role: "button", name: "Next"};`, `v1.js:5: does not parse:`},
	}
	for _, c := range cases {
		lines := strings.Split(good, "\n")
		lines[4] = c.line
		s := handMade(t, dir, c.name, strings.Join(lines, "\n"))
		probs, err := s.Check(c.name)
		if err != nil {
			t.Fatal(err)
		}
		if len(probs) != 1 || !strings.Contains(probs[0].String(), c.want) {
			t.Errorf("%s: problems %v, want one with %q", c.name, probs, c.want)
		}
	}
	// A manifest that is not JSON: its line.
	os.WriteFile(filepath.Join(dir, "good", routine.ManifestFile), []byte("{\n  \"format\": 1,\n  \"name\": \"good\"\n  \"version\": 1\n}"), 0o644)
	probs, err := s.Check("good")
	if err != nil || len(probs) != 1 || probs[0].Line != 4 {
		t.Errorf("a broken manifest: %v %v, want one problem on line 4", probs, err)
	}
	if _, err := s.Check("nope"); !routine.IsCode(err, routine.CodeNotFound) {
		t.Errorf("an unknown routine: %v", err)
	}
}
