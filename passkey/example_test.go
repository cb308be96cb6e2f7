package passkey_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/webagent/webagent/passkey"
)

// A store is created on first use; the credentials a site made are kept
// with their site and user, and their keys never print.
func Example() {
	dir, _ := os.MkdirTemp("", "passkeys")
	defer os.RemoveAll(dir)
	s, err := passkey.Open(filepath.Join(dir, "passkeys.json"))
	if err != nil {
		fmt.Println(err)
		return
	}
	_, _ = s.Add(passkey.Credential{ID: []byte("credential-1"), RPID: "example.org", UserHandle: []byte("u1"),
		UserName: "ann@example.org", PrivateKey: passkey.PrivateKey("PKCS#8 bytes")})
	for _, c := range s.List() {
		fmt.Println(c.RPID, c.User(), c.IDString(), c.PrivateKey)
	}
	// Output: example.org ann@example.org Y3JlZGVudGlhbC0x [private key]
}
