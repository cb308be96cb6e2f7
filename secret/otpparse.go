package secret

import (
	"encoding/base32"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// OTPError says why a secret that is a one-time password generator cannot
// be used, and how to write it. It never holds the key.
type OTPError struct {
	Problem string // what is wrong
	Fix     string // how to write it instead
}

func (e *OTPError) Error() string { return e.Problem + "; " + e.Fix }

// The prefixes that make a secret's value a code generator.
const (
	totpPrefix    = "totp:"
	otpauthPrefix = "otpauth:"
)

// fixKey is the advice for a key that cannot be read.
const fixKey = "give the base32 key the site shows beside its QR code (letters A-Z and digits 2-7), as totp:KEY or an otpauth://totp/ URI"

// IsOTP reports whether a secret's value is a one-time password generator
// rather than a fixed string: totp:BASE32 (the prefix in any case) or an
// otpauth:// URI.
func IsOTP(value string) bool {
	v := strings.ToLower(strings.TrimSpace(value))
	return strings.HasPrefix(v, totpPrefix) || strings.HasPrefix(v, otpauthPrefix)
}

// ParseOTP reads a time-based one-time password generator: totp:BASE32
// (spaces, padding and lower case tolerated; SHA1, 6 digits, 30 seconds),
// or an otpauth://totp/LABEL?secret=BASE32 URI with optional algorithm
// (SHA1, SHA256, SHA512), digits (6 or 8) and period (seconds). The error
// is an *OTPError saying what is wrong and how to fix it.
func ParseOTP(value string) (*OTP, error) {
	v := strings.TrimSpace(value)
	if len(v) >= len(totpPrefix) && strings.EqualFold(v[:len(totpPrefix)], totpPrefix) {
		key, err := decodeKey(v[len(totpPrefix):])
		if err != nil {
			return nil, err
		}
		return &OTP{key: key, algo: "SHA1", digits: 6, period: 30 * time.Second}, nil
	}
	if len(v) >= len(otpauthPrefix) && strings.EqualFold(v[:len(otpauthPrefix)], otpauthPrefix) {
		return parseOTPAuth(v)
	}
	return nil, &OTPError{Problem: "the value is not a one-time password generator", Fix: "write totp:KEY or an otpauth://totp/ URI"}
}

// parseOTPAuth reads an otpauth:// URI, the text of an authenticator QR
// code.
func parseOTPAuth(v string) (*OTP, error) {
	u, err := url.Parse(v)
	if err != nil {
		return nil, &OTPError{Problem: "the otpauth URI cannot be parsed", Fix: "write it as otpauth://totp/LABEL?secret=KEY"}
	}
	switch strings.ToLower(u.Host) {
	case "totp":
	case "hotp":
		return nil, &OTPError{Problem: "otpauth://hotp (counter-based codes) is not supported", Fix: "use the site's time-based (totp) setup, or have the person read the code with ask_human"}
	default:
		return nil, &OTPError{Problem: "the otpauth URI is not of type totp", Fix: "write it as otpauth://totp/LABEL?secret=KEY"}
	}
	q := u.Query()
	if q.Get("secret") == "" {
		return nil, &OTPError{Problem: "the otpauth URI has no secret parameter", Fix: "write it as otpauth://totp/LABEL?secret=KEY"}
	}
	key, err := decodeKey(q.Get("secret"))
	if err != nil {
		return nil, err
	}
	o := &OTP{key: key, algo: "SHA1", digits: 6, period: 30 * time.Second}
	if a := q.Get("algorithm"); a != "" {
		o.algo = strings.ToUpper(strings.ReplaceAll(a, "-", ""))
		if hashes[o.algo] == nil {
			return nil, &OTPError{Problem: fmt.Sprintf("the algorithm %q is not one of SHA1, SHA256, SHA512", a), Fix: "write algorithm=SHA1, SHA256 or SHA512, or leave it out for SHA1"}
		}
	}
	if d := q.Get("digits"); d != "" {
		if o.digits, err = strconv.Atoi(d); err != nil || pow10[o.digits] == 0 {
			return nil, &OTPError{Problem: fmt.Sprintf("digits=%s: a code has 6 or 8 digits", d), Fix: "write digits=6 or digits=8, or leave it out for 6"}
		}
	}
	if p := q.Get("period"); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 {
			return nil, &OTPError{Problem: fmt.Sprintf("period=%s: the period is a positive number of seconds", p), Fix: "write e.g. period=30, or leave it out for 30"}
		}
		o.period = time.Duration(n) * time.Second
	}
	return o, nil
}

// decodeKey reads a base32 key, tolerating spaces, '=' padding and lower
// case. The error names a bad character's position, never the key.
func decodeKey(s string) ([]byte, error) {
	k := strings.ToUpper(strings.TrimRight(strings.ReplaceAll(strings.TrimSpace(s), " ", ""), "="))
	if k == "" {
		return nil, &OTPError{Problem: "the key is empty", Fix: fixKey}
	}
	for i, c := range k {
		if (c < 'A' || c > 'Z') && (c < '2' || c > '7') {
			return nil, &OTPError{Problem: fmt.Sprintf("the key is not base32: character %d is not a letter A-Z or a digit 2-7", i+1), Fix: fixKey}
		}
	}
	key, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(k)
	if n := len(k) % 8; err != nil || n == 1 || n == 3 || n == 6 {
		return nil, &OTPError{Problem: fmt.Sprintf("the key is not base32: %d characters cannot end a base32 key", len(k)%8), Fix: "check that the key was copied whole; " + fixKey}
	}
	return key, nil
}
