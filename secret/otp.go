package secret

import (
	"crypto/hmac"
	"crypto/sha1" // RFC 6238's default; HMAC-SHA1 needs no collision resistance
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"fmt"
	"hash"
	"time"
)

// OTP generates the time-based one-time passwords of an authenticator app
// (RFC 6238): a code of Digits digits that changes every Period, computed
// from a shared key with HMAC-Algorithm. Get one from ParseOTP; it does
// not change after.
type OTP struct {
	key    []byte
	algo   string        // SHA1, SHA256 or SHA512
	digits int           // 6 or 8
	period time.Duration // whole seconds, more than 0
}

// Algorithm is the HMAC hash: SHA1, SHA256 or SHA512.
func (o *OTP) Algorithm() string { return o.algo }

// Digits is the length of a code: 6 or 8.
func (o *OTP) Digits() int { return o.digits }

// Period is the time a code is valid, whole seconds (usually 30s).
func (o *OTP) Period() time.Duration { return o.period }

// hashes are the HMAC hash functions RFC 6238 names.
var hashes = map[string]func() hash.Hash{"SHA1": sha1.New, "SHA256": sha256.New, "SHA512": sha512.New}

// Code returns the code valid at t.
func (o *OTP) Code(t time.Time) string {
	return hotp(o.key, o.counter(t), o.digits, hashes[o.algo])
}

// counter is the number of whole periods between the Unix epoch and t.
func (o *OTP) counter(t time.Time) uint64 {
	return uint64(t.Unix() / int64(o.period/time.Second))
}

// pow10 holds 10^6 and 10^8, the two code lengths.
var pow10 = map[int]uint32{6: 1_000_000, 8: 100_000_000}

// hotp is RFC 4226's HOTP: the HMAC of the counter, dynamically truncated
// to 31 bits, as digits decimal digits.
func hotp(key []byte, counter uint64, digits int, h func() hash.Hash) string {
	mac := hmac.New(h, key)
	var msg [8]byte
	binary.BigEndian.PutUint64(msg[:], counter)
	mac.Write(msg[:])
	sum := mac.Sum(nil)
	off := sum[len(sum)-1] & 0x0f
	bin := binary.BigEndian.Uint32(sum[off:off+4]) & 0x7fffffff
	return fmt.Sprintf("%0*d", digits, bin%pow10[digits])
}
