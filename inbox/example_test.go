package inbox_test

import (
	"context"
	"fmt"
	"time"

	"github.com/webagent/webagent/inbox"
)

// A task reads the code a site just mailed: the newest message from the
// site since the task began, waiting up to 30 seconds for it, within a
// budget of 45 seconds for the whole call.
func ExampleConfig_Wait() {
	c, err := inbox.ParseURL("imaps://agent%40example.com@imap.example.com/INBOX")
	if err != nil {
		fmt.Println(err)
		return
	}
	c.Password = "the secret inbox"
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	m, err := c.Wait(ctx, inbox.Query{From: "shop.example", Subject: "code", Since: time.Now()}, 30*time.Second)
	if err != nil || m == nil {
		fmt.Println("no code:", err)
		return
	}
	code, _ := inbox.Extract(m.Text)
	fmt.Println(len(code))
}

// The address never shows the password; Extract finds a mail's code and
// its sign-in link.
func Example() {
	c, err := inbox.ParseURL("imaps://agent%40example.com@imap.example.com/INBOX")
	if err != nil {
		fmt.Println(err)
		return
	}
	c.Password = "the secret inbox"
	fmt.Println(c)
	code, link := inbox.Extract("Your sign-in code is 482913, or open https://shop.example/magic?token=Qx81 to sign in.")
	fmt.Println(code, link)
	// Output:
	// imaps://agent%40example.com@imap.example.com:993/INBOX
	// 482913 https://shop.example/magic?token=Qx81
}
