package browser

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

// The kinds of request the limits page makes to the other host, by path.
var egressKinds = []string{"/img", "/script", "/fetch", "/ws", "/es", "/beacon", "/worker-fetch", "/shared-fetch", "/sw-fetch", "/prefetch"}

// hostRecorder is a second host: it notes every connection, the request line
// of each, and every UDP datagram (a STUN probe).
type hostRecorder struct {
	tcp  net.Listener
	udp  net.PacketConn
	mu   sync.Mutex
	conn int
	got  []string // request paths
	dgrm int
}

func startHostRecorder(t *testing.T, host string) *hostRecorder {
	t.Helper()
	l, err := net.Listen("tcp", host+":0")
	if err != nil {
		t.Skipf("cannot listen on %s: %v", host, err)
	}
	u, err := net.ListenPacket("udp", host+":0")
	if err != nil {
		l.Close()
		t.Skipf("cannot listen on %s (udp): %v", host, err)
	}
	r := &hostRecorder{tcp: l, udp: u}
	var wg sync.WaitGroup
	t.Cleanup(func() { l.Close(); u.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			r.mu.Lock()
			r.conn++
			r.mu.Unlock()
			wg.Go(func() { r.serve(c) })
		}
	})
	wg.Go(func() {
		buf := make([]byte, 2048)
		for {
			if _, _, err := u.ReadFrom(buf); err != nil {
				return
			}
			r.mu.Lock()
			r.dgrm++
			r.mu.Unlock()
		}
	})
	return r
}

// serve reads requests and answers each with an empty 200.
func (r *hostRecorder) serve(c net.Conn) {
	defer c.Close()
	br := bufio.NewReader(c)
	for {
		_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		r.mu.Lock()
		r.got = append(r.got, req.URL.Path)
		r.mu.Unlock()
		ct := "text/plain"
		if req.URL.Path == "/script" {
			ct = "text/javascript"
		}
		fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nAccess-Control-Allow-Origin: *\r\nContent-Length: 0\r\n\r\n", ct)
	}
}

func (r *hostRecorder) seen() (conns int, paths []string, datagrams int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.conn, slices.Clone(r.got), r.dgrm
}

// limitsSite serves the page that reaches for the other host every way a
// page can.
func limitsSite(t *testing.T, other string, udpPort int) string {
	t.Helper()
	o := "http://" + other
	page := `<title>limits</title><p>limits</p>
<img src="` + o + `/img">
<link rel="prefetch" href="` + o + `/prefetch">
<script src="` + o + `/script"></script>
<script>
const O = "` + o + `";
const settle = [];
const p = f => settle.push(new Promise(r => { try { f(r) } catch (e) { r() } }));
p(r => fetch(O + "/fetch").then(r, r));
p(r => { const w = new WebSocket("ws://` + other + `/ws"); w.onerror = w.onclose = w.onopen = () => r(); });
p(r => { const s = new EventSource(O + "/es"); s.onerror = s.onopen = () => { s.close(); r(); }; });
p(r => { navigator.sendBeacon(O + "/beacon", "x"); r(); });
p(r => { const w = new Worker("/worker.js"); w.onmessage = w.onerror = () => r(); });
p(r => { const w = new SharedWorker("/shared.js"); w.port.onmessage = () => r(); w.onerror = () => r(); });
p(r => navigator.serviceWorker.register("/sw.js").then(reg => {
  const sw = reg.installing || reg.waiting || reg.active;
  if (!sw || sw.state === "activated") return r();
  sw.onstatechange = () => { if (sw.state === "activated" || sw.state === "redundant") r(); };
}, r));
p(r => {
  const pc = new RTCPeerConnection({iceServers: [{urls: "stun:` + strings.Split(other, ":")[0] + `:` + strconv.Itoa(udpPort) + `"}]});
  pc.createDataChannel("d");
  pc.onicegatheringstatechange = () => { if (pc.iceGatheringState === "complete") r(); };
  pc.createOffer().then(o => pc.setLocalDescription(o), r);
});
Promise.all(settle).then(() => { window.done = true; });
</script>`
	return serve(t, map[string]string{
		"/":          page,
		"/worker.js": `fetch("` + o + `/worker-fetch").finally(() => postMessage(1));`,
		"/shared.js": `onconnect = e => { const port = e.ports[0]; fetch("` + o + `/shared-fetch").finally(() => port.postMessage(1)); };`,
		"/sw.js":     `self.addEventListener("install", e => e.waitUntil(fetch("` + o + `/sw-fetch").catch(() => {})));`,
	}) + "/"
}

var (
	refusedCount = regexp.MustCompile(`(\d+) requests? to (?:a )?hosts? outside your limits (?:were|was) refused: ([^;]*)`)
	refusedHost  = regexp.MustCompile(`([^\s,]+) \(\d+\)`)
)

// TestEgressLimits: a page on an allowed host reaches for a second host
// with an image, a script, fetch, a WebSocket, an EventSource, a beacon,
// three kinds of worker, a prefetch and a WebRTC probe. Unconfined, the
// second host receives each (the page does make them); under the allowed
// domains, or under the private network guard alone, it receives nothing,
// not even a connection, and the outcome says how many were refused.
func TestEgressLimits(t *testing.T) {
	tier.Slow(t)
	other := startHostRecorder(t, "127.0.0.2")
	otherHost := other.tcp.Addr().String()
	udpPort := other.udp.LocalAddr().(*net.UDPAddr).Port

	t.Run("unconfined", func(t *testing.T) {
		b := launch(t, Options{})
		site := limitsSite(t, otherHost, udpPort)
		if err := b.Confine(contract.NavigationPolicy{AllowPrivateNetwork: true}); err != nil {
			t.Fatal(err)
		}
		do(t, b, contract.Action{Name: contract.ActGoto, URL: site})
		waitFor(t, "every kind of request at the other host", 20*time.Second, func() bool {
			_, paths, _ := other.seen()
			for _, k := range egressKinds {
				if !slices.Contains(paths, k) {
					return false
				}
			}
			return true
		})
	})
	c0, p0, d0 := other.seen()

	proxy := &authProxy{user: "ann", pass: "pw"}
	ps := httptest.NewServer(proxy)
	defer ps.Close()
	viaProxy := strings.Replace(ps.URL, "http://", "http://ann:pw@", 1)
	for _, tc := range []struct {
		name   string
		proxy  string
		policy func(site string) contract.NavigationPolicy
	}{
		{"allowed-domains", "", func(string) contract.NavigationPolicy {
			allowed, err := contract.ParseDomainPatterns("127.0.0.1")
			if err != nil {
				t.Fatal(err)
			}
			return contract.NavigationPolicy{Allowed: allowed, AllowPrivateNetwork: true}
		}},
		{"private-network", "", func(site string) contract.NavigationPolicy {
			u, _ := url.Parse(site)
			return contract.NavigationPolicy{Trusted: []string{u.Hostname()}}
		}},
		// Through the user's proxy, the private network guard resolves
		// names itself; nothing for the other host reaches the proxy.
		{"private-network-through-a-proxy", viaProxy, func(site string) contract.NavigationPolicy {
			u, _ := url.Parse(site)
			return contract.NavigationPolicy{Trusted: []string{u.Hostname()}}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := launch(t, Options{RecordActivity: true, Proxy: tc.proxy})
			site := limitsSite(t, otherHost, udpPort)
			if err := b.Confine(tc.policy(site)); err != nil {
				t.Fatal(err)
			}
			text := do(t, b, contract.Action{Name: contract.ActGoto, URL: site})
			refused := 0
			var told []string
			count := func(s string) {
				for _, m := range refusedCount.FindAllStringSubmatch(s, -1) {
					n, _ := strconv.Atoi(m[1])
					refused += n
					told = append(told, m[0])
					for _, h := range refusedHost.FindAllStringSubmatch(m[2], -1) {
						if h[1] != otherHost {
							// Chromium's own calls are not the page's.
							t.Errorf("a refusal of %s was reported: %s", h[1], m[0])
						}
					}
				}
			}
			count(text)
			waitFor(t, "the page's attempts to end, and each refused", 20*time.Second, func() bool {
				s := snapshot(t, b)
				count(strings.Join(s.Notices, "; "))
				v, _ := b.Eval(tctx(t), `window.done === true`)
				return v == true && refused >= len(egressKinds)
			})
			c, paths, d := other.seen()
			if c != c0 || d != d0 || len(paths) != len(p0) {
				t.Errorf("the other host was reached: %d connections, %d datagrams, requests %v (before: %d, %d, %v)", c-c0, d-d0, paths[len(p0):], c0, d0, p0)
			}
			if tc.proxy != "" {
				proxy.mu.Lock()
				passed := slices.Clone(proxy.passed)
				proxy.mu.Unlock()
				if !slices.ContainsFunc(passed, func(u string) bool { return strings.HasPrefix(u, site) }) {
					t.Errorf("the page did not come through the user's proxy: %v", passed)
				}
				for _, u := range passed {
					if strings.Contains(u, otherHost) {
						t.Errorf("the user's proxy was asked for %s", u)
					}
				}
			}
			if !strings.Contains(strings.Join(told, " "), "refused") {
				t.Errorf("the outcome did not say requests were refused: %q", text)
			}
			_, net := b.TakeActivity()
			listed := 0
			for _, n := range net {
				if strings.Contains(n.URL, otherHost) && strings.Contains(n.Error, "refused by webagent") {
					listed++
				}
			}
			if listed < len(egressKinds) {
				t.Errorf("the trace lists %d refused requests to %s, want at least %d", listed, otherHost, len(egressKinds))
			}
		})
	}
	_, _, d := other.seen()
	if d != 0 {
		t.Errorf("WebRTC sent %d datagrams to a host no proxy carries", d)
	}
}

// TestEgressChromiumHosts: a page's own requests to a host of Chromium's
// services (an image, fetch, a worker's fetch) are refused under the
// limits and told, like any page's: the egress keeps silent only about the
// calls Chromium makes by itself to those hosts (TestChromiumsOwnCalls in
// internal/egress), and the interceptor tells it which are a page's.
func TestEgressChromiumHosts(t *testing.T) {
	b := launch(t, Options{})
	site := serve(t, map[string]string{
		"/": `<title>own</title><img src="https://update.googleapis.com/page.png">
<script>
fetch("http://update.googleapis.com/page-fetch").catch(() => {});
new Worker("/worker.js");
</script>`,
		"/worker.js": `fetch("https://dl.google.com/worker-fetch").catch(() => {});`,
	}) + "/"
	allowed, err := contract.ParseDomainPatterns("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Confine(contract.NavigationPolicy{Allowed: allowed, AllowPrivateNetwork: true}); err != nil {
		t.Fatal(err)
	}
	told := do(t, b, contract.Action{Name: contract.ActGoto, URL: site})
	want := []string{"update.googleapis.com:443 (", "update.googleapis.com (", "dl.google.com:443 ("}
	waitFor(t, "the page's three refusals told", 20*time.Second, func() bool {
		told += strings.Join(snapshot(t, b).Notices, "; ")
		for _, w := range want {
			if !strings.Contains(told, w) {
				return false
			}
		}
		return true
	})
}
