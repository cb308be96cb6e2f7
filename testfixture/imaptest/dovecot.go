// Package imaptest runs a real IMAP server for tests: Debian's Dovecot
// over TLS with a test CA, serving a Maildir the tests deliver into
// (Server.Deliver); and servers that misbehave: one that stalls, one
// whose certificate names another host.
package imaptest

import (
	"bytes"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Dovecot is where Debian installs the server (apt-get install dovecot-imapd).
const Dovecot = "/usr/sbin/dovecot"

// Server is a running Dovecot with one user and its Maildir.
type Server struct {
	// Addr is 127.0.0.1:PORT, IMAP over TLS.
	Addr string
	// User and Password sign in.
	User, Password string
	// CA signed the server's certificate (for 127.0.0.1).
	CA *CA
	// CAFile holds CA's PEM, for --inbox-ca.
	CAFile string

	dir, maildir string
	uid, gid     int
}

// Start runs Dovecot until the test ends, or skips the test saying why
// when Dovecot is not installed.
func Start(t testing.TB) *Server {
	t.Helper()
	if _, err := os.Stat(Dovecot); err != nil {
		t.Skipf("Dovecot is not installed (%s missing): apt-get install dovecot-imapd, as .ci/run does", Dovecot)
	}
	dir := t.TempDir()
	// Dovecot's mail processes run as an unprivileged user: they must
	// reach the Maildir inside the test's folder.
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s := &Server{User: "agent", Password: randomHex(t), CA: NewCA(t), dir: dir, maildir: filepath.Join(dir, "Maildir")}
	s.uid, s.gid = mailOwner(t)
	s.CAFile = s.write(t, "ca.pem", s.CA.PEM, 0o644)
	certPEM, keyPEM := s.CA.Leaf(t, "127.0.0.1", "localhost")
	s.write(t, "cert.pem", certPEM, 0o644)
	s.write(t, "key.pem", keyPEM, 0o600)
	s.write(t, "passwd", []byte(s.User+":{PLAIN}"+s.Password+"\n"), 0o644)
	for _, sub := range []string{"", "new", "cur", "tmp"} {
		p := filepath.Join(s.maildir, sub)
		if err := os.MkdirAll(p, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(p, s.uid, s.gid); err != nil {
			t.Fatal(err)
		}
	}
	port := freePort(t)
	s.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	conf := s.write(t, "dovecot.conf", []byte(s.config(port)), 0o644)
	s.run(t, conf)
	return s
}

func randomHex(t testing.TB) string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b[:])
}

// mailOwner is the user the mail belongs to: nobody under root (Dovecot
// serves no mail as root), else the user running the tests.
func mailOwner(t testing.TB) (int, int) {
	if os.Geteuid() != 0 {
		return os.Geteuid(), os.Getegid()
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		t.Skipf("no user nobody to own the test Maildir: %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return uid, gid
}

func (s *Server) write(t testing.TB, name string, b []byte, mode os.FileMode) string {
	p := filepath.Join(s.dir, name)
	if err := os.WriteFile(p, b, mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func freePort(t testing.TB) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ln.Close() }()
	return ln.Addr().(*net.TCPAddr).Port
}

// config is Dovecot 2.3's configuration: IMAP over TLS only on port, the
// user's password in a passwd-file, the Maildir.
func (s *Server) config(port int) string {
	d := s.dir
	users := ""
	if os.Geteuid() != 0 {
		me, _ := user.Current()
		users = fmt.Sprintf("default_internal_user = %s\ndefault_login_user = %s\ndefault_internal_group = %s\n", me.Username, me.Username, me.Username)
	}
	return fmt.Sprintf(`base_dir = %[1]s/run
state_dir = %[1]s/state
log_path = %[1]s/dovecot.log
protocols = imap
listen = 127.0.0.1
%[3]sssl = required
ssl_cert = <%[1]s/cert.pem
ssl_key = <%[1]s/key.pem
disable_plaintext_auth = yes
auth_mechanisms = plain login
mail_location = maildir:%[1]s/Maildir
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%%u %[1]s/passwd
}
userdb {
  driver = static
  args = uid=%[4]d gid=%[5]d home=%[1]s/home
}
service imap-login {
  chroot =
  inet_listener imap {
    port = 0
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = %[2]d
    ssl = yes
  }
}
service anvil {
  chroot =
}
`, d, port, users, s.uid, s.gid)
}

// run starts Dovecot in the foreground in a process group of its own,
// waits until it greets over TLS, and stops the whole group when the test
// ends, failing it if a process is left.
func (s *Server) run(t testing.TB, conf string) {
	cmd := exec.Command(Dovecot, "-F", "-c", conf)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting Dovecot: %v", err)
	}
	pgid := cmd.Process.Pid
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			<-exited
		}
		if err := waitGone(pgid, 10*time.Second); err != nil {
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			t.Error(err)
		}
	})
	if err := s.waitGreeting(exited, 20*time.Second); err != nil {
		log, _ := os.ReadFile(filepath.Join(s.dir, "dovecot.log"))
		t.Fatalf("Dovecot did not start: %v\n%s\n%s", err, out.String(), log)
	}
}

// waitGreeting polls the port until Dovecot answers IMAP over TLS.
func (s *Server) waitGreeting(exited <-chan error, within time.Duration) error {
	deadline := time.Now().Add(within)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		d := net.Dialer{Deadline: deadline}
		conn, err := tls.DialWithDialer(&d, "tcp", s.Addr, &tls.Config{RootCAs: s.CA.Pool(), ServerName: "127.0.0.1"})
		if err == nil {
			_ = conn.SetReadDeadline(deadline)
			buf := make([]byte, 64)
			n, rerr := conn.Read(buf)
			_ = conn.Close()
			if rerr == nil && strings.HasPrefix(string(buf[:n]), "* OK") {
				return nil
			}
			err = fmt.Errorf("greeting %q: %v", buf[:n], rerr)
		}
		if time.Now().After(deadline) {
			return err
		}
		select {
		case e := <-exited:
			return fmt.Errorf("dovecot exited: %v", e)
		case <-tick.C:
		}
	}
}

// waitGone waits until no process of the group is left.
func waitGone(pgid int, within time.Duration) error {
	deadline := time.Now().Add(within)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("processes of Dovecot's group %d are left after %s", pgid, within)
		}
		<-tick.C
	}
}

// Deliver puts a message into the Maildir as a delivery agent does:
// written into tmp/, then renamed into new/.
func (s *Server) Deliver(t testing.TB, from, subject, body string) {
	t.Helper()
	if err := s.DeliverRaw(MessageText(from, subject, body)); err != nil {
		t.Fatal(err)
	}
}

// DeliverRaw delivers a whole message (headers, a blank line, the body);
// safe to call from a handler's goroutine.
func (s *Server) DeliverRaw(msg string) error { return s.deliver(msg, time.Time{}) }

// DeliverBefore delivers a message received at when (the file's time,
// which Dovecot reads as the date it received it): mail from before a
// task.
func (s *Server) DeliverBefore(t testing.TB, when time.Time, from, subject, body string) {
	t.Helper()
	if err := s.deliver(MessageText(from, subject, body), when); err != nil {
		t.Fatal(err)
	}
}

func (s *Server) deliver(msg string, when time.Time) error {
	name := fmt.Sprintf("%d.%s.webagent", time.Now().UnixNano(), strings.ReplaceAll(randomHexNoT(), "/", ""))
	tmp := filepath.Join(s.maildir, "tmp", name)
	if err := os.WriteFile(tmp, []byte(msg), 0o600); err != nil {
		return err
	}
	if err := os.Chown(tmp, s.uid, s.gid); err != nil {
		return err
	}
	if !when.IsZero() {
		if err := os.Chtimes(tmp, when, when); err != nil {
			return err
		}
	}
	return os.Rename(tmp, filepath.Join(s.maildir, "new", name))
}

func randomHexNoT() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// MessageText is a plain text mail.
func MessageText(from, subject, body string) string {
	return "From: " + from + "\r\nTo: agent@example.test\r\nSubject: " + subject +
		"\r\nDate: " + time.Now().Format(time.RFC1123Z) + "\r\nMessage-ID: <" + randomHexNoT() + "@example.test>" +
		"\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + strings.ReplaceAll(body, "\n", "\r\n") + "\r\n"
}
