package inbox

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
)

// DefaultPort is the IMAP over TLS port, used when the address names none.
const DefaultPort = "993"

// Config is one mailbox: where it is, whose it is, and how its server's
// certificate is checked. Its String never shows the password.
type Config struct {
	// User signs in; Host and Port say where the server is.
	User, Host, Port string
	// Mailbox is the folder read, INBOX by default.
	Mailbox string
	// Password is the user's password: the task's secret inbox.
	Password string
	// RootCAs verifies the server's certificate; nil for the system's.
	RootCAs *x509.CertPool
}

// ParseURL reads imaps://USER@HOST[:PORT]/MAILBOX. A password in the
// address is refused (it would show wherever the address does), and so is
// any scheme but imaps. Each error says how to write the address.
func ParseURL(raw string) (Config, error) {
	const form = "write imaps://USER@HOST[:PORT]/MAILBOX, e.g. imaps://agent%40example.com@imap.example.com/INBOX"
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return Config{}, fmt.Errorf("the inbox address cannot be read (%v); %s", err, form)
	}
	switch {
	case u.Scheme == "imap":
		return Config{}, fmt.Errorf("the inbox address %s is plain IMAP; only imaps:// (TLS from the first byte) is spoken, never STARTTLS; %s", u.Redacted(), form)
	case u.Scheme != "imaps":
		return Config{}, fmt.Errorf("the inbox address %q is not an imaps:// URL; %s", u.Redacted(), form)
	case u.User == nil || u.User.Username() == "":
		return Config{}, fmt.Errorf("the inbox address %s names no user; %s", u.Redacted(), form)
	case hasPassword(u):
		return Config{}, fmt.Errorf("the inbox address holds a password; give it as the secret inbox instead (--secret inbox=env:VAR); %s", form)
	case u.Hostname() == "":
		return Config{}, fmt.Errorf("the inbox address %s names no host; %s", u.Redacted(), form)
	case u.RawQuery != "" || u.Fragment != "":
		return Config{}, fmt.Errorf("the inbox address %s has a query or fragment, which mean nothing here; %s", u.Redacted(), form)
	}
	c := Config{User: u.User.Username(), Host: u.Hostname(), Port: u.Port(), Mailbox: strings.Trim(u.Path, "/")}
	if c.Port == "" {
		c.Port = DefaultPort
	}
	if c.Mailbox == "" {
		c.Mailbox = "INBOX"
	}
	return c, nil
}

func hasPassword(u *url.URL) bool { _, ok := u.User.Password(); return ok }

// Addr is the server's host:port.
func (c Config) Addr() string { return net.JoinHostPort(c.Host, c.Port) }

// String is the address, without the password.
func (c Config) String() string {
	return "imaps://" + url.User(c.User).String() + "@" + c.Addr() + "/" + c.Mailbox
}

// GoString is String: %#v shows no password either.
func (c Config) GoString() string { return c.String() }

// LoadCA reads a PEM file of the certificates that sign the server's
// (a private CA), added to none of the system's.
func LoadCA(path string) (*x509.CertPool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("the inbox CA: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		return nil, fmt.Errorf("the inbox CA %s holds no PEM certificate; give the CA's certificate (-----BEGIN CERTIFICATE-----)", path)
	}
	return pool, nil
}

func (c Config) tlsConfig() *tls.Config {
	return &tls.Config{ServerName: c.Host, RootCAs: c.RootCAs, MinVersion: tls.VersionTLS12}
}
