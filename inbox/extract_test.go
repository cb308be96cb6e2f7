package inbox

import "testing"

func TestExtract(t *testing.T) {
	cases := []struct{ name, text, code, link string }{
		{"six digits", "Hello,\nyour code is 482913. It expires in 10 minutes.\nOrder 2026-01-05", "482913", ""},
		{"after the word code", "Use code 7421 to sign in", "7421", ""},
		{"not in a URL", "Open https://shop.test/orders/123456 to see it", "", ""},
		{"magic link", "Click https://shop.test/magic?token=Zx81kqP0aa to sign in.\nUnsubscribe: https://shop.test/prefs", "", "https://shop.test/magic?token=Zx81kqP0aa"},
		{"long query value", "Continue: https://a.test/c?t=abcdefghijklmnopqrstuv", "", "https://a.test/c?t=abcdefghijklmnopqrstuv"},
		{"both", "Code: 918273 or https://x.test/login/verify/abc", "918273", "https://x.test/login/verify/abc"},
	}
	for _, c := range cases {
		code, link := Extract(c.text)
		if code != c.code || link != c.link {
			t.Errorf("%s: Extract = %q, %q; want %q, %q", c.name, code, link, c.code, c.link)
		}
	}
}

func TestHTMLBody(t *testing.T) {
	raw := "From: a@b.test\r\nSubject: s\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" +
		`<html><head><style>p{}</style></head><body><p>Hi &amp; welcome</p><a href="https://b.test/signin?token=abc">Sign in</a></body></html>`
	text, err := bodyText([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if text != "Hi & welcome\nSign in (https://b.test/signin?token=abc)" {
		t.Fatalf("text = %q", text)
	}
}

func TestParseURL(t *testing.T) {
	c, err := ParseURL("imaps://agent%40example.com@imap.example.com/Codes")
	if err != nil || c.User != "agent@example.com" || c.Addr() != "imap.example.com:993" || c.Mailbox != "Codes" {
		t.Fatalf("ParseURL = %+v, %v", c, err)
	}
	c.Password = "hunter2"
	if s := c.String() + c.GoString(); s != "imaps://agent%40example.com@imap.example.com:993/Codes"+"imaps://agent%40example.com@imap.example.com:993/Codes" {
		t.Fatalf("String = %q", s)
	}
	for raw, want := range map[string]string{
		"imap://a@h/INBOX":        "never STARTTLS",
		"imaps://h/INBOX":         "names no user",
		"imaps://a:pw@h/INBOX":    "give it as the secret inbox",
		"https://a@h/":            "not an imaps:// URL",
		"imaps://a@h/INBOX?x=1":   "query",
		"imaps://a@:993/INBOX":    "names no host",
		"imaps://a@h:99999/INBOX": "",
	} {
		_, err := ParseURL(raw)
		if want == "" {
			continue
		}
		if err == nil || !contains(err.Error(), want) || !contains(err.Error(), "imaps://USER@HOST") {
			t.Errorf("ParseURL(%q) = %v; want %q and how to write it", raw, err, want)
		}
		if contains(err.Error(), "pw") && raw == "imaps://a:pw@h/INBOX" {
			t.Errorf("the error shows the password: %v", err)
		}
	}
}
