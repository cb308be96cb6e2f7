package botauth_test

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"github.com/webagent/webagent/botauth"
)

// A new key, and the headers that sign a request with it.
func ExampleSigner_Sign() {
	dir, _ := os.MkdirTemp("", "botauth-example")
	defer os.RemoveAll(dir)
	key, err := botauth.NewKeyFile(filepath.Join(dir, "bot.pem"))
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := botauth.NewSigner(key, botauth.SignerOptions{SignatureAgent: "https://bot.example.com"})
	if err != nil {
		fmt.Println(err)
		return
	}
	u, _ := url.Parse("https://shop.example/cart")
	h, _ := s.Sign(botauth.Authority(u))
	fmt.Println(h.Get("Signature-Agent"))
	fmt.Println(len(h.Get("Signature-Input")) > 0, len(h.Get("Signature")) > 0)
	// Output:
	// agent1="https://bot.example.com"
	// true true
}
