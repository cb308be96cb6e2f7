package secret_test

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"html"
	"io"
	"net/url"
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/secret"
)

func TestSet(t *testing.T) {
	s := secret.New(map[string]string{"pw": "hunter2", "long": "hunter2-and-more", "empty": ""}, "https://bank.example/login")
	if got := s.Mask("a hunter2-and-more b hunter2"); got != "a <secret>long</secret> b <secret>pw</secret>" {
		t.Errorf("mask: %q", got)
	}
	a, err := s.Fill(contract.Action{Name: contract.ActType, Text: "<secret>pw</secret>/<secret>nope</secret>"})
	if err != nil || a.Text != "hunter2/<secret>nope</secret>" || len(a.Origins) != 1 || a.Origins[0] != "https://bank.example" ||
		len(a.SecretNames) != 1 || a.SecretNames[0] != "pw" {
		t.Errorf("fill: %+v, %v", a, err)
	}
	// Anywhere but type, a placeholder is refused with the secret's name.
	for _, a := range []contract.Action{
		{Name: contract.ActGoto, URL: "http://elsewhere/steal?c=<secret>pw</secret>"},
		{Name: contract.ActSelect, Ref: "e1", Option: "<secret>pw</secret>"},
		{Name: contract.ActWaitFor, Text: "<secret>long</secret>"},
	} {
		got, err := s.Fill(a)
		if !isActionErr(err) || !strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "hunter2") || strings.Contains(got.URL+got.Option+got.Text, "hunter2") {
			t.Errorf("Fill(%s) = %+v, %v; want a refusal naming the secret", a.Name, got, err)
		}
	}
	if names := s.Names(); len(names) != 2 || names[0] != "long" {
		t.Errorf("names: %v", names)
	}
	if s.Err() != nil {
		t.Errorf("Err: %v", s.Err())
	}
}

func isActionErr(err error) bool {
	var ae *contract.ActionError
	return errors.As(err, &ae)
}

// A secret is masked in every form it can come back in: raw, URL-encoded
// (form and percent, either case), HTML entities, JSON escapes, base64 and
// base64url at any alignment inside a longer text.
func TestSecretMaskingForms(t *testing.T) {
	const pw = "Zq9!p@ss w<rd>&\"/é"
	s := secret.New(map[string]string{"pw": pw}, "")
	var forms []string
	forms = append(forms, pw, url.QueryEscape(pw), url.PathEscape(pw), strings.ReplaceAll(url.QueryEscape(pw), "%3C", "%3c"), html.EscapeString(pw))
	j, _ := json.Marshal(pw)
	forms = append(forms, string(j[1:len(j)-1]))
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(map[string]string{"p": pw})
	forms = append(forms, b.String())
	for _, prefix := range []string{"", "u=", "us=", "user="} {
		forms = append(forms,
			base64.StdEncoding.EncodeToString([]byte(prefix+pw+"&x=1")),
			base64.URLEncoding.EncodeToString([]byte(prefix+pw)),
			base64.RawURLEncoding.EncodeToString([]byte(prefix+pw+"!")))
	}
	form := url.Values{"user": {"ann"}, "password": {pw}}.Encode()
	forms = append(forms, "http://127.0.0.1:8080/login?"+form)
	for _, f := range forms {
		got := s.Mask("before " + f + " after")
		if strings.Contains(got, pw) || strings.Contains(got, "Zq9") || strings.Contains(got, f) {
			t.Errorf("mask(%q) = %q: the value shows", f, got)
		}
		if !strings.Contains(got, "<secret>pw</secret>") {
			t.Errorf("mask(%q) = %q: no placeholder", f, got)
		}
	}
}

// The masking writer hides a secret in a log line, in any form.
func TestMaskerWriter(t *testing.T) {
	const pw = "Zq9!p@ss word"
	var out strings.Builder
	w := secret.NewMasker(map[string]string{"pw@https://bank.example": pw}).Writer(&out)
	line := "DBG snapshot url=http://127.0.0.1:8080/login?user=ann&password=" + url.QueryEscape(pw) + " raw=" + pw + "\n"
	if n, err := io.WriteString(w, line); err != nil || n != len(line) {
		t.Fatalf("write: %d, %v", n, err)
	}
	if got := out.String(); strings.Contains(got, "Zq9") || strings.Count(got, "<secret>pw</secret>") != 2 {
		t.Errorf("logged %q", got)
	}
}

// A malformed generator is reported by Err, wrapped with the secret's name,
// and filling it is refused saying why; neither repeats the key.
func TestSetMalformedOTP(t *testing.T) {
	const key = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
	s := secret.New(map[string]string{"otp": "otpauth://totp/x?secret=" + key + "&algorithm=MD5", "pw": "hunter2"}, "https://example.org")
	var oe *secret.OTPError
	if err := s.Err(); !errors.As(err, &oe) || !strings.HasPrefix(err.Error(), `secret otp: the algorithm "MD5"`) || strings.Contains(err.Error(), key) {
		t.Errorf("Err: %v", err)
	}
	_, err := s.Fill(contract.Action{Name: contract.ActType, Ref: "e1", Text: "<secret>otp</secret>"})
	if !isActionErr(err) || !strings.Contains(err.Error(), "the secret otp cannot be used") || strings.Contains(err.Error(), key) {
		t.Errorf("Fill: %v", err)
	}
	if a, err := s.Fill(contract.Action{Name: contract.ActType, Ref: "e1", Text: "<secret>pw</secret>"}); err != nil || a.Text != "hunter2" {
		t.Errorf("Fill of another secret: %+v, %v", a, err)
	}
}
