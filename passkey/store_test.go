package passkey

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestStore(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "passkeys.json")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("a new store: %v, %v", fi, err)
	}
	key := PrivateKey("very secret key bytes")
	add := func(id, rp, user string) bool {
		t.Helper()
		r, err := s.Add(Credential{ID: []byte(id), RPID: rp, UserHandle: []byte(user), UserName: user + "@" + rp, PrivateKey: key})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	add("id-one", "a.example", "ann")
	add("id-two", "b.example", "ann")
	if !add("id-three", "a.example", "ann") {
		t.Error("a second credential of the same site and user did not replace the first")
	}
	if err := s.Used([]byte("id-two"), 7, time.Now()); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	list := s2.List()
	if len(list) != 2 || string(list[0].ID) != "id-three" || list[1].SignCount != 7 || string(list[1].PrivateKey) != string(key) {
		t.Fatalf("reopened: %+v", list)
	}
	var logged strings.Builder
	slog.New(slog.NewTextHandler(&logged, nil)).Info("c", "cred", list[0], "key", list[0].PrivateKey)
	js, _ := json.Marshal(list[0])
	for _, out := range []string{fmt.Sprint(list[0]), fmt.Sprintf("%+v %#v %s %x", list[0], list[0], list[0].PrivateKey, list[0].PrivateKey), logged.String(), string(js)} {
		if strings.Contains(out, string(key)) || strings.Contains(out, fmt.Sprintf("%x", []byte(key))) || strings.Contains(out, "dmVyeSBzZWNyZXQ") {
			t.Errorf("the key shows: %s", out)
		}
	}
	if _, err := s2.Remove("b.example"); err != nil {
		t.Fatal(err)
	}
	if _, err := s2.Remove("nothing"); err == nil {
		t.Error("removing nothing: no error")
	}
	if l := s2.List(); len(l) != 1 || l[0].RPID != "a.example" {
		t.Fatalf("after remove: %+v", l)
	}
}

func TestOpenRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, data string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct{ path, want string }{
		{write("open.json", `{"format":"webagent-passkeys","version":1,"credentials":[]}`, 0o644), "chmod 600"},
		{write("junk.json", `{"credentials": [`, 0o600), "is not JSON"},
		{write("other.json", `{"format":"x","version":1,"credentials":[]}`, 0o600), "is not a passkey store"},
		{write("nokey.json", `{"format":"webagent-passkeys","version":1,"credentials":[{"credentialId":"aWQ=","rpId":"a"}]}`, 0o600), "without credentialId, rpId or privateKey"},
		{dir, "is a folder"},
		{filepath.Join(dir, "missing", "p.json"), "create the folder"},
	} {
		_, err := Open(c.path)
		var pe *Error
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an *Error with %q", filepath.Base(c.path), err, c.want)
		}
	}
}
