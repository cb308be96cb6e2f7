// Package neterr turns network errors into the words a person reads in an
// error message.
package neterr

import (
	"errors"
	"net"
	"strings"
)

// Reason is the human end of a network error: "connection refused", "no
// such host example.invalid".
func Reason(err error) string {
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return "no such host " + dns.Name
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		s := op.Err.Error()
		if i := strings.LastIndex(s, ": "); i >= 0 {
			s = s[i+2:]
		}
		return s
	}
	return err.Error()
}
