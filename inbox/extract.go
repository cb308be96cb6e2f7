package inbox

import (
	"bytes"
	"html"
	"io"
	"mime"
	"regexp"
	"strings"

	_ "github.com/emersion/go-message/charset" // bodies in other charsets than UTF-8
	"github.com/emersion/go-message/mail"
)

// maxBody bounds the text kept of one message.
const maxBody = 64 << 10

// bodyText reads a message's text: its plain part, else its HTML part
// made text.
func bodyText(raw []byte) (string, error) {
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		return "", err
	}
	var plain, rich string
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
		h, ok := p.Header.(*mail.InlineHeader)
		if !ok {
			continue
		}
		ct, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
		b, err := io.ReadAll(io.LimitReader(p.Body, maxBody))
		if err != nil {
			return "", err
		}
		switch {
		case (ct == "text/plain" || ct == "") && plain == "":
			plain = string(b)
		case ct == "text/html" && rich == "":
			rich = htmlText(string(b))
		}
	}
	text := plain
	if strings.TrimSpace(text) == "" {
		text = rich
	}
	return strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n")), nil
}

var (
	anchorRE = regexp.MustCompile(`(?is)<a\b[^>]*\bhref\s*=\s*["']([^"']+)["'][^>]*>(.*?)</a>`)
	dropRE   = regexp.MustCompile(`(?is)<(script|style|head)\b.*?</(script|style|head)>`)
	breakRE  = regexp.MustCompile(`(?i)<(br|/p|/div|/tr|/h[1-6]|/li)\b[^>]*>`)
	tagRE    = regexp.MustCompile(`(?s)<[^>]*>`)
	blankRE  = regexp.MustCompile(`\n[ \t]*\n(\s*\n)+`)
)

// htmlText makes an HTML body text: a link's words followed by its URL.
func htmlText(s string) string {
	s = dropRE.ReplaceAllString(s, "")
	s = anchorRE.ReplaceAllString(s, "$2 ($1)")
	s = breakRE.ReplaceAllString(s, "\n")
	s = tagRE.ReplaceAllString(s, "")
	return blankRE.ReplaceAllString(html.UnescapeString(s), "\n\n")
}

var (
	urlRE     = regexp.MustCompile(`https?://[^\s<>"'()\[\]]+`)
	code6RE   = regexp.MustCompile(`(^|[^0-9A-Za-z])([0-9]{6})([^0-9A-Za-z]|$)`)
	codeAnyRE = regexp.MustCompile(`(?i)code[^0-9]{0,40}?([0-9]{4,8})([^0-9A-Za-z]|$)`)
	// signInWords name a sign-in link.
	signInWords = []string{"token", "login", "log-in", "signin", "sign-in", "sign_in", "magic", "verify", "confirm", "auth", "session", "otp", "code"}
)

// Extract finds a message's one-time code and its sign-in link; "" for
// what it does not hold. The code is a number of six digits standing
// alone, else one of 4 to 8 digits after the word "code"; numbers inside
// URLs do not count. The link is the first http or https URL that names a
// sign-in (a token, login, magic, verify…) or carries a long query value.
func Extract(text string) (code, link string) {
	urls := urlRE.FindAllString(text, -1)
	for _, u := range urls {
		u = strings.TrimRight(u, ".,;:!?")
		if signInLink(u) {
			link = u
			break
		}
	}
	rest := urlRE.ReplaceAllString(text, " ")
	if m := code6RE.FindStringSubmatch(rest); m != nil {
		code = m[2]
	} else if m := codeAnyRE.FindStringSubmatch(rest); m != nil {
		code = m[1]
	}
	return code, link
}

func signInLink(u string) bool {
	low := strings.ToLower(u)
	for _, w := range signInWords {
		if strings.Contains(low, w) {
			return true
		}
	}
	_, query, _ := strings.Cut(u, "?")
	for _, kv := range strings.Split(query, "&") {
		if _, v, _ := strings.Cut(kv, "="); len(v) >= 16 {
			return true
		}
	}
	return false
}
