package egress

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"time"
)

// The way out through the user's proxy.

// upstreamURL is the user's proxy with its credentials.
func upstreamURL(p *Upstream) (*url.URL, error) {
	u, err := url.Parse(p.Server)
	if err != nil {
		// Server holds no credentials (Upstream), so the error may quote it.
		return nil, fmt.Errorf("egress: the proxy %s: %w", p.Server, err)
	}
	if p.Username != "" {
		u.User = url.UserPassword(p.Username, p.Password)
	}
	return u, nil
}

// dialUpstream opens a tunnel to addr through the user's proxy: CONNECT
// for an http or https proxy, the SOCKS handshake for a SOCKS one.
func (e *Proxy) dialUpstream(ctx context.Context, _, addr string) (net.Conn, error) {
	u := e.up
	d := &net.Dialer{Timeout: dialBudget}
	c, err := d.DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return nil, fmt.Errorf("reaching the proxy %s: %w", u.Host, err)
	}
	stop := context.AfterFunc(ctx, func() { c.SetDeadline(time.Now()) })
	defer stop()
	switch u.Scheme {
	case "https":
		tc := tls.Client(c, &tls.Config{ServerName: u.Hostname()})
		if err := tc.HandshakeContext(ctx); err != nil {
			c.Close()
			return nil, fmt.Errorf("the proxy %s: %w", u.Host, err)
		}
		c = tc
		fallthrough
	case "http":
		err = connectThrough(c, addr, e.cfg.Upstream)
	case "socks5":
		err = socks5Connect(c, addr)
	case "socks4":
		err = socks4Connect(c, addr)
	default:
		err = fmt.Errorf("the proxy scheme %q is not supported", u.Scheme)
	}
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("through the proxy %s: %w", u.Host, err)
	}
	_ = c.SetDeadline(time.Time{})
	return c, nil
}

// connectThrough asks an http proxy for a tunnel to addr.
func connectThrough(c net.Conn, addr string, p *Upstream) error {
	req := "CONNECT " + addr + " HTTP/1.1\r\nHost: " + addr + "\r\n"
	if p.Username != "" {
		req += "Proxy-Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(p.Username+":"+p.Password)) + "\r\n"
	}
	if _, err := io.WriteString(c, req+"\r\n"); err != nil {
		return err
	}
	resp, err := http.ReadResponse(bufio.NewReaderSize(&oneByte{c}, 1), nil)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("CONNECT %s: %s", addr, resp.Status)
	}
	return nil
}

// oneByte reads one byte at a time, so that reading the proxy's answer
// takes nothing of the tunnel's first bytes.
type oneByte struct{ c net.Conn }

func (o *oneByte) Read(p []byte) (int, error) { return o.c.Read(p[:min(1, len(p))]) }

// socks5Connect asks a SOCKS5 proxy (no authentication) for addr.
func socks5Connect(c net.Conn, addr string) error {
	host, port, err := splitPort(addr)
	if err != nil {
		return err
	}
	if _, err := c.Write([]byte{5, 1, 0}); err != nil {
		return err
	}
	var hello [2]byte
	if _, err := io.ReadFull(c, hello[:]); err != nil {
		return err
	}
	if hello[0] != 5 || hello[1] != 0 {
		return errors.New("the SOCKS5 proxy wants an authentication webagent does not offer")
	}
	if len(host) > 255 {
		return errors.New("the host name is too long for SOCKS5")
	}
	req := append([]byte{5, 1, 0, 3, byte(len(host))}, host...)
	req = append(req, byte(port>>8), byte(port))
	if _, err := c.Write(req); err != nil {
		return err
	}
	var head [4]byte
	if _, err := io.ReadFull(c, head[:]); err != nil {
		return err
	}
	if head[1] != 0 {
		return fmt.Errorf("the SOCKS5 proxy refused %s (code %d)", addr, head[1])
	}
	var skip int
	switch head[3] {
	case 1:
		skip = 4 + 2
	case 4:
		skip = 16 + 2
	case 3:
		var n [1]byte
		if _, err := io.ReadFull(c, n[:]); err != nil {
			return err
		}
		skip = int(n[0]) + 2
	default:
		return errors.New("the SOCKS5 proxy answered in a form webagent does not read")
	}
	_, err = io.ReadFull(c, make([]byte, skip))
	return err
}

// socks4Connect asks a SOCKS4 proxy for addr, by name (SOCKS4a).
func socks4Connect(c net.Conn, addr string) error {
	host, port, err := splitPort(addr)
	if err != nil {
		return err
	}
	req := []byte{4, 1, byte(port >> 8), byte(port), 0, 0, 0, 1, 0}
	if a, err := netip.ParseAddr(host); err == nil && a.Is4() {
		ip := a.As4()
		copy(req[4:8], ip[:])
	} else {
		req = append(append(req, host...), 0)
	}
	if _, err := c.Write(req); err != nil {
		return err
	}
	var resp [8]byte
	if _, err := io.ReadFull(c, resp[:]); err != nil {
		return err
	}
	if resp[1] != 0x5a {
		return fmt.Errorf("the SOCKS4 proxy refused %s (code %d)", addr, resp[1])
	}
	return nil
}

func splitPort(addr string) (string, int, error) {
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	var port int
	if _, err := fmt.Sscanf(p, "%d", &port); err != nil || port <= 0 || port > 65535 {
		return "", 0, fmt.Errorf("bad port in %q", addr)
	}
	return host, port, nil
}
