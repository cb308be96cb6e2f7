package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

// goto refuses the schemes that are not web pages, with a message that says
// why, and nothing of the target reaches the page: no file is read, no
// browser page opens, no script runs.
func TestGotoRefusesSchemes(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	rec := newRecorder(t)
	home := servePage(t, `<title>Home</title><p>home page</p>`)
	open(t, shared, home)
	for _, c := range []struct{ url, want string }{
		{"file:///etc/passwd", "file: URLs are refused"},
		{"file:///root/", "file: URLs are refused"},
		{"chrome://version", "chrome: URLs are refused"},
		{"chrome://settings", "chrome: URLs are refused"},
		{"javascript:fetch('" + rec.URL + "/js');document.title='owned'", "javascript: URLs are refused"},
		{"data:text/html,<script>fetch('" + rec.URL + "/data')</script>", "data: URLs are refused"},
		{"view-source:" + home, "view-source: URLs are refused"},
		{"devtools://devtools/bundled/inspector.html", "devtools: URLs are refused"},
		{"chrome-extension://abc/page.html", "chrome-extension: URLs are refused"},
	} {
		_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActGoto, URL: c.url})
		if !isActionError(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("goto %s: %v, want an action error saying %q", c.url, err, c.want)
		}
		s := snapshot(t, shared)
		if s.URL != home || s.Title != "Home" {
			t.Errorf("after goto %s the page is %s (%q), want the home page", c.url, s.URL, s.Title)
		}
	}
	rec.wantNothing(t)
	// The legitimate use still works.
	if out := do(t, shared, contract.Action{Name: contract.ActGoto, URL: rec.URL + "/ok"}); !strings.Contains(out, "Attacker") {
		t.Errorf("goto an http page: %s", out)
	}
}

// A page cannot take the browser to a local file or a browser page: not
// by a link, a redirect, a popup or a frame. Chromium's own rules and the
// guard's interception both stand in the way; the page stays usable.
func TestPageCannotReachFiles(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	var base string
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Lure</title>
<a href="file:///etc/passwd">passwords</a>
<a href="/redirect">redirect</a>
<a href="chrome://version">version</a>
<button onclick="window.open('file:///etc/passwd')">popup</button>
<iframe src="file:///etc/passwd"></iframe>`)
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	base = srv.URL + "/"
	passwd, err := os.ReadFile("/etc/passwd")
	if err != nil || len(passwd) < 10 {
		t.Skip("no /etc/passwd to look for")
	}
	line := strings.SplitN(string(passwd), "\n", 2)[0]
	for _, target := range []string{`link "passwords"`, `link "redirect"`, `link "version"`, `button "popup"`} {
		s := open(t, shared, base)
		_, _ = shared.Do(tctx(t), contract.Action{Name: contract.ActClick, Ref: refOf(t, s, target)})
		s = snapshot(t, shared)
		if strings.Contains(s.Text, line) || strings.HasPrefix(s.URL, "file:") || strings.HasPrefix(s.URL, "chrome:") {
			t.Errorf("clicking %s reached %s:\n%s", target, s.URL, s.Text)
		}
		if strings.Contains(s.Text, "Command Line") {
			t.Errorf("clicking %s opened chrome://version", target)
		}
		closeOtherTabs(t, shared)
	}
}

// With an allow-list, a page cannot lead the browser to another host by a
// link, a redirect, a popup or a frame; the model is told why; a task that
// moves between two allowed sites still works.
func TestAllowedDomainsInBrowser(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	rec := newRecorder(t)
	other := servePage(t, `<title>Second site</title><p>welcome to the second site</p>`)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<title>First site</title>
<a href="%[1]s/link">leak by link</a>
<a href="/redirect">leak by redirect</a>
<button onclick="window.open('%[1]s/popup')">leak by popup</button>
<a href="/framed">framed</a>
<a href="%[2]s">second site</a>`, rec.URL, other)
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, rec.URL+"/redirect", http.StatusFound)
	})
	mux.HandleFunc("/framed", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<title>Framed</title><p>outer</p><iframe src="%s/frame"></iframe>`, rec.URL)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	confine(t, shared, contract.NavigationPolicy{
		Allowed: patterns(t, "http://"+hostPort(t, srv.URL)+","+hostPort(t, other)),
		Trusted: []string{"127.0.0.1"},
	})

	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActGoto, URL: rec.URL + "/goto"})
	if !isActionError(err) || !strings.Contains(err.Error(), "not in the allowed domains") {
		t.Errorf("goto outside the allow-list: %v", err)
	}
	for _, target := range []string{`link "leak by link"`, `link "leak by redirect"`, `button "leak by popup"`} {
		s := open(t, shared, srv.URL+"/")
		_, _ = shared.Do(tctx(t), contract.Action{Name: contract.ActClick, Ref: refOf(t, s, target)})
		waitNotice(t, shared, "not in the allowed domains")
		closeOtherTabs(t, shared)
	}
	s := open(t, shared, srv.URL+"/framed")
	if !strings.Contains(s.Text, "outer") {
		t.Errorf("the framing page did not load:\n%s", s.Text)
	}
	if want := "a frame to " + rec.URL + "/frame was refused"; !strings.Contains(strings.Join(s.Notices, "\n"), want) {
		waitNotice(t, shared, want)
	}
	rec.wantNothing(t)

	// Moving between the two allowed sites works.
	s = open(t, shared, srv.URL+"/")
	out := do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `link "second site"`)})
	if !strings.Contains(out, "Second site") {
		t.Errorf("clicking through to the second allowed site: %s", out)
	}
}

// The private network guard: a host on a loopback or private address that
// the user did not name is refused, even when its name is not an address
// (localhost resolves to loopback); the named host works; the flag lifts it.
func TestPrivateNetworkGuard(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	rec := newRecorder(t)
	named := servePage(t, `<title>Named</title><p>the user's site</p>`)
	byName := strings.Replace(rec.URL, "127.0.0.1", "localhost", 1)
	confine(t, shared, contract.NavigationPolicy{Trusted: []string{"127.0.0.1"}})
	for _, u := range []string{byName + "/name", "http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/", "http://[::1]:" + strings.Split(hostPort(t, rec.URL), ":")[1] + "/v6"} {
		_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActGoto, URL: u})
		if !isActionError(err) || !strings.Contains(err.Error(), "private network") {
			t.Errorf("goto %s: %v, want a refusal naming the private network", u, err)
		}
	}
	s := open(t, shared, named)
	if s.Title != "Named" {
		t.Errorf("the named host did not open: %s %q", s.URL, s.Title)
	}
	// A page that links to a private address is stopped in the browser.
	lure := servePage(t, fmt.Sprintf(`<title>Lure</title><a href="%s/click">internal</a>`, byName))
	s = open(t, shared, lure)
	_, _ = shared.Do(tctx(t), contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `link "internal"`)})
	waitNotice(t, shared, "private network")
	rec.wantNothing(t)

	confine(t, shared, contract.NavigationPolicy{Trusted: []string{"127.0.0.1"}, AllowPrivateNetwork: true})
	if out := do(t, shared, contract.Action{Name: contract.ActGoto, URL: byName + "/lifted"}); !strings.Contains(out, "Attacker") {
		t.Errorf("with the guard lifted: %s", out)
	}
}

// recorder stands in for an attacker's host: a loopback server that records
// every request it receives.
type recorder struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []string
}

func newRecorder(t *testing.T) *recorder {
	t.Helper()
	r := &recorder{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.reqs = append(r.reqs, req.URL.String())
		r.mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<title>Attacker</title><p>got it</p>")
	}))
	t.Cleanup(r.Close)
	return r
}

// confine sets a policy on b for the test and lifts it at the end.
func confine(t *testing.T, b *Browser, p contract.NavigationPolicy) {
	t.Helper()
	if err := b.Confine(p); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.guard.Confine(nil) })
}

func patterns(t *testing.T, s ...string) []contract.DomainPattern {
	t.Helper()
	p, err := contract.ParseDomainPatterns(s...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// hostPort is the host:port of a server URL.
func hostPort(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

// waitNotice snapshots until a notice containing want arrives.
func waitNotice(t *testing.T, b *Browser, want string) contract.Snapshot {
	t.Helper()
	var s contract.Snapshot
	var notes []string
	waitFor(t, "a notice with "+want, 5*time.Second, func() bool {
		s = snapshot(t, b)
		notes = append(notes, s.Notices...)
		return strings.Contains(strings.Join(notes, "\n"), want)
	})
	return s
}

// closeOtherTabs closes every tab but the first, and switches to it.
func closeOtherTabs(t *testing.T, b *Browser) {
	t.Helper()
	for len(b.tabs) > 1 {
		do(t, b, contract.Action{Name: contract.ActTabs, Op: contract.TabsClose, Tab: b.tabs[len(b.tabs)-1].id})
	}
}

func (r *recorder) requests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.reqs...)
}

// wantNothing fails the test if anything reached the recorder.
func (r *recorder) wantNothing(t *testing.T) {
	t.Helper()
	if got := r.requests(); len(got) > 0 {
		t.Errorf("the attacker's server received %q", got)
	}
}

// Two Browsers on one shared browser, each in a context of its own: the
// one with an allow-list refuses nothing of the other's, neither a
// navigation of a tab that was there before it started nor a frame of
// another site inside the other's page (which pauses in every Browser's
// guard before anything says whose it is).
func TestGuardKeepsToItsOwnContext(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	mine := newTab(t)
	frame := serve(t, map[string]string{"/f": `<button>Framed button</button>`})
	frameURL := strings.Replace(frame, "127.0.0.1", "localhost", 1) + "/f"
	base := serve(t, map[string]string{
		"/p": `<title>Host</title><iframe src="` + frameURL + `"></iframe>`,
		"/q": `<title>Before</title><p>first page</p>`,
	})
	open(t, mine, base+"/q")
	strict := newTab(t)
	only := servePage(t, `<title>Only</title><p>the one allowed site</p>`)
	confine(t, strict, contract.NavigationPolicy{Allowed: patterns(t, hostPort(t, only))})
	open(t, strict, only)

	s := open(t, mine, base+"/p")
	waitFor(t, "the frame's button", 10*time.Second, func() bool {
		if !strings.Contains(s.Text, "Framed button") {
			s = snapshot(t, mine)
		}
		return strings.Contains(s.Text, "Framed button")
	})
	if n := snapshot(t, strict).Notices; len(n) > 0 {
		t.Errorf("the other Browser's guard judged this one's requests: %q", n)
	}
}
