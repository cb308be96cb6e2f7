package agent

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/webagent/webagent/contract"
)

// A saved sign-in that no longer works: the task started with sign-ins
// loaded (a storage state, WithSavedSignIns), and a page of one of their
// sites shows a sign-in form. The rule: a snapshot with a text box named
// like a password field ("Password", "Passwort", "Mot de passe", …), on a
// host whose cookies the state held (the cookie's domain or a subdomain of
// it). The model is told at once; a task that then fails ends with
// CodeSignInExpired and a message that names the site, rather than the
// generic failure, so the user knows to sign in and save the state anew.

// CodeSignInExpired: a saved sign-in (a loaded storage state) no longer
// worked: a site of the state showed a sign-in page during the task, and
// the task failed.
const CodeSignInExpired Code = "SIGNIN_EXPIRED"

// WithSavedSignIns names the sites (cookie domains, such as .example.org)
// whose sign-ins the browser was given before the task, from a storage
// state.
func WithSavedSignIns(domains []string) Option {
	return func(c *config) { c.savedSignIns = append([]string(nil), domains...) }
}

// passwordBox finds a text box named like a password field in a snapshot.
var passwordBox = regexp.MustCompile(`(?im)^\s*-?\s*textbox "[^"\n]*(password|passwort|mot de passe|contraseña|senha|wachtwoord|passcode)`)

// signInPage returns the host of snap when it is a sign-in page of a site
// whose sign-in was saved, else "".
func (r *run) signInPage(snap contract.Snapshot) string {
	if len(r.a.cfg.savedSignIns) == 0 || !passwordBox.MatchString(snap.Text) {
		return ""
	}
	u, err := url.Parse(snap.URL)
	if err != nil || u.Hostname() == "" {
		return ""
	}
	host := strings.ToLower(u.Hostname())
	for _, d := range r.a.cfg.savedSignIns {
		d = strings.TrimPrefix(strings.ToLower(d), ".")
		if host == d || strings.HasSuffix(host, "."+d) {
			return host
		}
	}
	return ""
}

// noteSignIn returns the host of a sign-in page of a saved site (or "")
// and the observation, with the note for the model the first time.
func (r *run) noteSignIn(snap contract.Snapshot, obs string, told bool) (string, string) {
	host := r.signInPage(snap)
	if host != "" && !told {
		obs += signInNote(host)
	}
	return host, obs
}

// signInNote is what the model reads on the first such page.
func signInNote(host string) string {
	return fmt.Sprintf("\n\nNote: the saved sign-in for %s (loaded before the task) no longer worked: this is a sign-in page. "+
		"Sign in with the task's secrets if it gives them; otherwise call fail and say the saved sign-in expired.", host)
}

// signInLost makes a failure of a task whose saved sign-in stopped working
// say so, with its own code.
func (r *run) signInLost(code Code, err error) (Code, error) {
	if r.lostSignIn == "" || err == nil {
		return code, err
	}
	switch code {
	case CodeAgentFailed, CodeMaxIterations, CodeMaxErrors, CodeAgentStuck, CodeBlocked:
		return CodeSignInExpired, fmt.Errorf("the saved sign-in no longer worked: %s showed a sign-in page at step %d (sign in again and save the state anew with --save-storage-state); %w",
			r.lostSignIn, r.lostSignInStep, err)
	}
	return code, err
}
