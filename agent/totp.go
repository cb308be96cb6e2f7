package agent

import (
	"crypto/hmac"
	"crypto/sha1" //nolint:gosec // RFC 6238's default algorithm; not used for collision resistance.
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"fmt"
	"hash"
	"time"
)

// OTP generates the time-based one-time passwords of an authenticator app
// (RFC 6238): a code of Digits digits that changes every Period, computed
// from a shared key with HMAC-Algorithm. Get one from ParseOTP.
type OTP struct {
	key       []byte
	Algorithm string        // SHA1, SHA256 or SHA512
	Digits    int           // 6 or 8
	Period    time.Duration // the time a code is valid, usually 30s
}

// hashes are the HMAC hash functions RFC 6238 names.
var hashes = map[string]func() hash.Hash{"SHA1": sha1.New, "SHA256": sha256.New, "SHA512": sha512.New}

// Code returns the code valid at t.
func (o *OTP) Code(t time.Time) string {
	return hotp(o.key, o.counter(t), o.Digits, hashes[o.Algorithm])
}

// counter is the number of whole periods between the Unix epoch and t.
func (o *OTP) counter(t time.Time) uint64 {
	return uint64(t.Unix() / int64(o.Period/time.Second))
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
