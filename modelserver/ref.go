package modelserver

import "github.com/webagent/webagent/internal/outline"

// FindRef returns the ref of the first element of a page snapshot whose role
// is role and whose accessible name is exactly name. Elements are the
// snapshot's lines of the form `ROLE "NAME" ... [ref=ID]`, as package
// browser writes them.
func FindRef(snapshot, role, name string) (ref string, ok bool) {
	return outline.FindRef(snapshot, role, name)
}

// FindRefContains is FindRef matching names that contain substr.
func FindRefContains(snapshot, role, substr string) (ref string, ok bool) {
	return outline.FindRefContains(snapshot, role, substr)
}
