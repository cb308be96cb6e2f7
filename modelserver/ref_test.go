package modelserver

import "testing"

const snapshot = `- document "Shop"
  - heading "Welcome" [level=1]
  - navigation
    - link "Home" [ref=e1]
    - link "Sign in" [ref=e2]
  - form
    - textbox "Email" [required] [ref=e3]
    - textbox "Say \"hi\" \\ there" [ref=e4]
    - checkbox "Remember me" [checked] [ref=e5]
    - button "Sign in" [disabled] [ref=e6]
    - button [ref=e7]
    - button "Fake [ref=e99]" [ref=e8]
  combobox "Country" [expanded] [ref=e9]:
`

func TestFindRef(t *testing.T) {
	tests := []struct {
		role, name, want string
		ok               bool
	}{
		{"link", "Sign in", "e2", true},
		{"button", "Sign in", "e6", true},
		{"textbox", "Email", "e3", true},
		{"textbox", `Say "hi" \ there`, "e4", true},
		{"checkbox", "Remember me", "e5", true},
		{"button", "", "e7", true},
		{"button", "Fake [ref=e99]", "e8", true},
		{"combobox", "Country", "e9", true},
		{"link", "Sign", "", false},
		{"heading", "Welcome", "", false}, // no ref
		{"button", "Missing", "", false},
	}
	for _, tt := range tests {
		got, ok := FindRef(snapshot, tt.role, tt.name)
		if got != tt.want || ok != tt.ok {
			t.Errorf("FindRef(%q, %q) = %q, %v; want %q, %v", tt.role, tt.name, got, ok, tt.want, tt.ok)
		}
	}
	if ref, ok := FindRefContains(snapshot, "link", "Sign"); ref != "e2" || !ok {
		t.Errorf("FindRefContains = %q, %v", ref, ok)
	}
	if _, ok := FindRefContains(snapshot, "link", "sign"); ok {
		t.Error("FindRefContains is case-sensitive")
	}
}
