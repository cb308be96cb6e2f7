package agent_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/modelserver"
)

// The base32 of the ASCII key 12345678901234567890 (RFC 6238's SHA1 key).
const rfcKey = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

// totp:KEY tolerates case, spaces and padding, and means SHA1, 6 digits,
// 30 seconds; an otpauth URI sets each of them.
func TestParseOTP(t *testing.T) {
	t.Parallel()
	at := time.Unix(59, 0)
	for _, c := range []struct{ value, want string }{
		{"totp:" + rfcKey, "287082"},
		{"TOTP:" + strings.ToLower(rfcKey), "287082"},
		{" totp:GEZD GNBV GY3T QOJQ GEZD GNBV GY3T QOJQ====", "287082"},
		{"otpauth://totp/Bank:ann?secret=" + rfcKey + "&issuer=Bank", "287082"},
		{"otpauth://totp/x?secret=" + rfcKey + "&algorithm=sha1&digits=8", "94287082"},
		{"otpauth://totp/x?secret=" + rfcKey + "&period=60", "755224"}, // counter 0
	} {
		if !agent.IsOTP(c.value) {
			t.Errorf("IsOTP(%q) = false", c.value)
		}
		o, err := agent.ParseOTP(c.value)
		if err != nil {
			t.Errorf("%q: %v", c.value, err)
			continue
		}
		if got := o.Code(at); got != c.want {
			t.Errorf("%q at 59: %s, want %s", c.value, got, c.want)
		}
	}
	if agent.IsOTP("hunter2") || agent.IsOTP("my totp password") {
		t.Error("a password is taken for a generator")
	}
}

// A malformed generator is an *OTPError that says what is wrong and how to
// write it, and never repeats the key.
func TestParseOTPErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ value, problem, fix string }{
		{"totp:!!!", "character 1 is not a letter A-Z or a digit 2-7", "base32 key"},
		{"totp:", "the key is empty", "totp:KEY"},
		{"totp:ABCDEFGHI", "1 characters cannot end a base32 key", "copied whole"},
		{"otpauth://hotp/x?secret=" + rfcKey + "&counter=1", "hotp", "ask_human"},
		{"otpauth://totp/x?issuer=Bank", "no secret parameter", "secret=KEY"},
		{"otpauth://totp/x?secret=" + rfcKey + "&algorithm=MD5", `"MD5" is not one of SHA1, SHA256, SHA512`, "algorithm=SHA1"},
		{"otpauth://totp/x?secret=" + rfcKey + "&digits=7", "6 or 8 digits", "digits=6"},
		{"otpauth://totp/x?secret=" + rfcKey + "&period=0", "positive number of seconds", "period=30"},
		{"otpauth://totp/x?secret=" + rfcKey + "&period=-30", "positive number of seconds", "period=30"},
		{"otpauth://totp/x?secret=" + rfcKey + "1", "not base32", "base32 key"},
	} {
		_, err := agent.ParseOTP(c.value)
		var oe *agent.OTPError
		if !errors.As(err, &oe) {
			t.Errorf("%q: %v, want an *OTPError", c.value, err)
			continue
		}
		if !strings.Contains(oe.Problem, c.problem) || !strings.Contains(oe.Fix, c.fix) {
			t.Errorf("%q: %q, want %q and %q", c.value, err, c.problem, c.fix)
		}
		if strings.Contains(err.Error(), rfcKey) {
			t.Errorf("%q: the error repeats the key: %v", c.value, err)
		}
	}
}

// A code typed is masked, with the codes either side of it, in every
// Masker of the same generator; other numbers stay as they are, a longer
// one that holds the code's digits too.
func TestMaskerHidesTypedCodes(t *testing.T) {
	t.Parallel()
	secrets := map[string]string{"otp": "otpauth://totp/x?secret=" + rfcKey + "&digits=8"}
	m := agent.NewMasker(secrets)
	if got := m.Mask("order 123456, key " + rfcKey); got != "order 123456, key <secret>otp</secret>" {
		t.Errorf("before typing: %q", got)
	}
	o, err := agent.ParseOTP(secrets["otp"])
	if err != nil {
		t.Fatal(err)
	}
	code := o.Now()
	next := o.Code(time.Now().Add(o.Period()))
	for _, mk := range []*agent.Masker{m, agent.NewMasker(secrets)} {
		if got := mk.Mask("code " + code + " or " + next + ", order 123456, at 17" + code + "0"); got != "code <secret>otp</secret> or <secret>otp</secret>, order 123456, at 17"+code+"0" {
			t.Errorf("after typing: %q", got)
		}
		if got := mk.Mask(`{"q":"code=` + code + `"}`); got != `{"q":"code=<secret>otp</secret>"}` {
			t.Errorf("in JSON: %q", got)
		}
	}
}

// A run given a malformed generator ends before it starts, with the
// *OTPError in Result.Err and never the key in the message; the model is
// not asked.
func TestRunRefusesMalformedOTP(t *testing.T) {
	t.Parallel()
	br := tab(t)
	model, srv := newModel(t, modelserver.Script(done("never")))
	a := mustAgent(t, br, model)
	res := a.Run(context.Background(), agent.Task{URL: "http://127.0.0.1:1/", Instruction: "type <secret>otp</secret>",
		Secrets: map[string]string{"otp": "otpauth://totp/x?secret=" + rfcKey + "&algorithm=MD5"}})
	var oe *agent.OTPError
	if res.Code != agent.CodeAgentFailed || !errors.As(res.Err, &oe) || !strings.Contains(res.Message, "secret otp: the algorithm \"MD5\"") {
		t.Errorf("%s: %s (%v)", res.Code, res.Message, res.Err)
	}
	if strings.Contains(res.Message, rfcKey) || len(srv.Requests()) > 0 {
		t.Errorf("the message holds the key, or the model was asked (%d requests)", len(srv.Requests()))
	}
}

// A front end other than the loop (the MCP server) fills a generator
// through Masker.Fill: type gets the code valid now, bound to the
// secret's origin, and the same Masker hides it afterwards.
func TestMaskerFillTypesCurrentCode(t *testing.T) {
	t.Parallel()
	secrets := map[string]string{"otp@https://login.example.org": "totp:" + rfcKey + "MFRGG"}
	m := agent.NewMasker(secrets)
	o, err := agent.ParseOTP(secrets["otp@https://login.example.org"])
	if err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	a, err := m.Fill(contract.Action{Name: contract.ActType, Ref: "e1", Text: "<secret>otp</secret>"})
	if err != nil {
		t.Fatal(err)
	}
	if a.Text != o.Code(before) && a.Text != o.Code(time.Now()) {
		t.Errorf("typed %q, want the current code", a.Text)
	}
	if len(a.Origins) != 1 || a.Origins[0] != "https://login.example.org" {
		t.Errorf("origins %v", a.Origins)
	}
	if got := m.Mask("code: " + a.Text); got != "code: <secret>otp</secret>" {
		t.Errorf("masked %q", got)
	}
	if _, err := m.Fill(contract.Action{Name: contract.ActGoto, URL: "https://x.example/?c=<secret>otp</secret>"}); err == nil {
		t.Error("a goto with the code was filled")
	}
}
