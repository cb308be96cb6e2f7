package agent

import (
	"crypto/sha1"
	"encoding/base32"
	"strings"
	"testing"
	"time"
)

// RFC 4226 Appendix D: HOTP of the ASCII key 12345678901234567890 for the
// counters 0 to 9.
func TestHOTPRFC4226(t *testing.T) {
	t.Parallel()
	want := []string{"755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"}
	for c, w := range want {
		if got := hotp([]byte("12345678901234567890"), uint64(c), 6, sha1.New); got != w {
			t.Errorf("counter %d: %s, want %s", c, got, w)
		}
	}
}

// RFC 6238 Appendix B: TOTP with 8 digits and a 30-second period, for
// SHA1, SHA256 and SHA512, each with its own ASCII key, read through
// otpauth URIs as a user gives them.
func TestTOTPRFC6238(t *testing.T) {
	t.Parallel()
	keys := map[string]string{
		"SHA1":   "12345678901234567890",
		"SHA256": "12345678901234567890123456789012",
		"SHA512": "1234567890123456789012345678901234567890123456789012345678901234",
	}
	vectors := []struct {
		unix int64
		want map[string]string
	}{
		{59, map[string]string{"SHA1": "94287082", "SHA256": "46119246", "SHA512": "90693936"}},
		{1111111109, map[string]string{"SHA1": "07081804", "SHA256": "68084774", "SHA512": "25091201"}},
		{1111111111, map[string]string{"SHA1": "14050471", "SHA256": "67062674", "SHA512": "99943326"}},
		{1234567890, map[string]string{"SHA1": "89005924", "SHA256": "91819424", "SHA512": "93441116"}},
		{2000000000, map[string]string{"SHA1": "69279037", "SHA256": "90698825", "SHA512": "38618901"}},
		{20000000000, map[string]string{"SHA1": "65353130", "SHA256": "77737706", "SHA512": "47863826"}},
	}
	for algo, key := range keys {
		b32 := base32.StdEncoding.EncodeToString([]byte(key))
		o, err := ParseOTP("otpauth://totp/Example:ann?secret=" + b32 + "&algorithm=" + algo + "&digits=8&period=30")
		if err != nil {
			t.Fatalf("%s: %v", algo, err)
		}
		for _, v := range vectors {
			if got := o.Code(time.Unix(v.unix, 0)); got != v.want[algo] {
				t.Errorf("%s at %d: %s, want %s", algo, v.unix, got, v.want[algo])
			}
		}
	}
}

// The prompt says what a generator types, and where a mailed code comes
// from: ask_human when there is a person to ask.
func TestPromptNamesOTP(t *testing.T) {
	t.Parallel()
	s := newSecrets(map[string]string{"otp": "totp:GEZDGNBVGY3TQOJQ", "pw": "hunter2"}, "https://example.org")
	got := strings.Join(s.promptNames(true), ", ")
	if !strings.HasPrefix(got, "otp (types the current sign-in code") || !strings.Contains(got, "mail or SMS is not this secret: ask the person for it with ask_human), pw") {
		t.Errorf("with a person: %s", got)
	}
	if got := strings.Join(s.promptNames(false), ", "); strings.Contains(got, "ask_human") || !strings.Contains(got, "fail saying") {
		t.Errorf("without a person: %s", got)
	}
}
