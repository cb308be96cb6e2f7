package neterr

import (
	"net"
	"testing"
	"time"
)

func TestReason(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, err = net.DialTimeout("tcp", addr, time.Second)
	if got := Reason(err); got != "connection refused" {
		t.Errorf("Reason(dial a closed port) = %q", got)
	}
	_, err = net.LookupHost("nosuch.invalid")
	if got := Reason(err); got != "no such host nosuch.invalid" {
		t.Errorf("Reason(lookup) = %q", got)
	}
}
