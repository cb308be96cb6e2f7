package routine_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/webagent/webagent/routine"
)

// A routine is a folder a person can read and edit; Check validates it
// without a browser and names the line of each mistake.
func ExampleStore_Check() {
	dir, _ := os.MkdirTemp("", "routines")
	defer os.RemoveAll(dir)
	m := routine.Manifest{Format: routine.Format, Name: "sign-in", Description: "Sign in as {user}.", Version: 1,
		Parameters: json.RawMessage(`{"type":"object","properties":{"user":{"type":"string"}},"required":["user"]}`),
		Secrets:    []string{"pw"}}
	data, _ := json.Marshal(m)
	os.MkdirAll(filepath.Join(dir, "sign-in"), 0o755)
	os.WriteFile(filepath.Join(dir, "sign-in", routine.ManifestFile), data, 0o644)
	os.WriteFile(filepath.Join(dir, "sign-in", "v1.js"), []byte(`start("https://members.example/");
type({role: "textbox", name: "User"}, params.user);
type({role: "textbox", name: "Password"}, secret("pw"));
clik({role: "button", name: "Sign in"});
return expect({text: "Welcome"});
`), 0o644)

	s, _ := routine.Open(dir)
	probs, _ := s.Check("sign-in")
	for _, p := range probs {
		fmt.Println(filepath.Base(p.File), p.Line, p.Msg)
	}
	// Output:
	// v1.js 4 clik is not a function a routine has (did you mean click?)
}
