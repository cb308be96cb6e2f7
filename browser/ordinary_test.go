package browser

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/browser/launcher"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

// botdResult is what BotD reported in one document.
type botdResult struct {
	Bot     bool
	BotKind string
	Flagged []string
}

// tellsResult is what testdata/ordinary/tells.js read.
type tellsResult struct {
	Error           string
	UA              string
	AppVersion      string
	Webdriver       bool
	Cores           int
	Languages       []string
	Brands          []string
	FullVersionList []string
	Architecture    string
	Bitness         string
	UAFullVersion   string
	Headers         map[string]string // the client hints the server got
	Platform        string
	WebGL           struct{ Vendor, Renderer, UnmaskedVendor, UnmaskedRenderer string }
	Plugins         int
	PluginArray     bool
	MimeTypes       int
	Chrome          bool
	Notification    string
	Permission      string
	Screen          struct{ Width, Height, AvailWidth, AvailHeight int }
	Outer, Inner    struct{ Width, Height int }
}

// probeResult is what testdata/ordinary/probe.html found: in its own
// document, in a worker it started, and in a frame of another site.
type probeResult struct {
	Error  string
	Botd   botdResult
	Tells  tellsResult
	Worker tellsResult
	Frame  *struct {
		Botd  botdResult
		Tells tellsResult
	}
}

// serveProbe serves probe.html, its scripts and BotD on 127.0.0.1 and
// returns the address of a probe whose frame is served from localhost,
// another site, so that the frame runs in a process of its own.
func serveProbe(t *testing.T) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/botd.esm.js", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, "testdata/botd/botd.esm.js")
	})
	mux.HandleFunc("/hints", func(w http.ResponseWriter, r *http.Request) {
		h := map[string]string{}
		for name := range r.Header {
			if strings.HasPrefix(strings.ToLower(name), "sec-ch-ua") {
				h[strings.ToLower(name)] = r.Header.Get(name)
			}
		}
		_ = json.NewEncoder(w).Encode(h)
	})
	mux.Handle("/", http.FileServer(http.Dir("testdata/ordinary")))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// As a site that wants the high-entropy hints asks for them.
		w.Header().Set("Accept-CH", "Sec-CH-UA-Full-Version-List, Sec-CH-UA-Arch, Sec-CH-UA-Bitness")
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	frame := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/probe.html"
	return srv.URL + "/probe.html?frame=" + frame
}

// probe opens the probe page in b and returns what it found.
func probe(t *testing.T, b *Browser) probeResult {
	t.Helper()
	do(t, b, contract.Action{Name: contract.ActGoto, URL: serveProbe(t)})
	// BotD runs in the page, a frame and a worker: on a busy machine
	// (packages' tests side by side) that takes longer than an action.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	v, err := b.Eval(ctx, `window.probe.then(JSON.stringify)`)
	if err != nil {
		t.Fatalf("reading the probe: %v", err)
	}
	var r probeResult
	if err := json.Unmarshal([]byte(v.(string)), &r); err != nil {
		t.Fatalf("the probe's answer %v: %v", v, err)
	}
	if r.Error != "" || r.Worker.Error != "" || r.Frame == nil {
		t.Fatalf("the probe failed: %s", v)
	}
	return r
}

// TestOrdinaryBotD: BotD, FingerprintJS's open-source bot detector, finds
// no bot in the default browser, in the page and in a frame of another
// site; in a worker, which BotD cannot run in, the user agent, its
// client hints, navigator.webdriver and the core count are the page's.
func TestOrdinaryBotD(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	r := probe(t, shared)
	for where, d := range map[string]botdResult{"the page": r.Botd, "a cross-origin frame": r.Frame.Botd} {
		if d.Bot {
			t.Errorf("BotD in %s: a bot, %s (%v)", where, d.BotKind, d.Flagged)
		}
	}
	w, p := r.Worker, r.Tells
	if w.UA != p.UA || strings.Join(w.Brands, ",") != strings.Join(p.Brands, ",") || w.Webdriver || w.Cores != p.Cores {
		t.Errorf("the worker sees another browser than its page:\nworker %+v\npage   %+v", w, p)
	}
}

// TestOrdinaryTells checks each tell of a headless or automated Chromium
// on its own, in the page, a cross-origin frame and a worker.
func TestOrdinaryTells(t *testing.T) {
	r := probe(t, shared)
	all := map[string]tellsResult{"page": r.Tells, "frame": r.Frame.Tells, "worker": r.Worker}
	windows := map[string]tellsResult{"page": r.Tells, "frame": r.Frame.Tells}
	t.Run("UserAgent", func(t *testing.T) {
		for where, v := range all {
			if strings.Contains(v.UA, "Headless") || strings.Contains(v.AppVersion, "Headless") || !strings.Contains(v.UA, " Chrome/") || v.UA != r.Tells.UA {
				t.Errorf("%s: user agent %q, app version %q; want the page's, with Chrome", where, v.UA, v.AppVersion)
			}
			if len(v.Brands) == 0 || strings.Contains(strings.Join(v.Brands, ","), "Headless") {
				t.Errorf("%s: client hint brands %v", where, v.Brands)
			}
		}
	})
	t.Run("ClientHints", func(t *testing.T) {
		// A person's Chromium answers the high-entropy hints with its own
		// version; the brands are Chromium's own, which a frame of another
		// site (which keeps the low-entropy hints only) reports unchanged.
		v, err := launcher.BrowserVersion(tctx(t), "")
		if err != nil {
			t.Fatal(err)
		}
		full := "Chromium " + v.Full
		if v.Name == "Google Chrome" {
			full = "Google Chrome " + v.Full
		}
		for where, v2 := range map[string]tellsResult{"page": r.Tells, "worker": r.Worker} {
			if !slices.Contains(v2.FullVersionList, full) || v2.Architecture == "" || v2.Bitness == "" || v2.UAFullVersion != v.Full {
				t.Errorf("%s: high-entropy hints %v, architecture %q, bitness %q, uaFullVersion %q; want %q among them", where, v2.FullVersionList, v2.Architecture, v2.Bitness, v2.UAFullVersion, full)
			}
			if strings.Join(v2.Brands, ",") != strings.Join(r.Frame.Tells.Brands, ",") {
				t.Errorf("%s: brands %v, Chromium's own (the frame's) %v", where, v2.Brands, r.Frame.Tells.Brands)
			}
		}
		h := r.Tells.Headers
		if !strings.Contains(h["sec-ch-ua-full-version-list"], `"`+v.Full+`"`) || h["sec-ch-ua-arch"] == "" || strings.Contains(h["sec-ch-ua"], "Headless") {
			t.Errorf("the server got the client hints %v; want the full version %s and the architecture", h, v.Full)
		}
	})
	t.Run("Webdriver", func(t *testing.T) {
		for where, v := range all {
			if v.Webdriver {
				t.Errorf("%s: navigator.webdriver is true", where)
			}
		}
	})
	t.Run("PluginsAndMimeTypes", func(t *testing.T) {
		for where, v := range windows {
			if v.Plugins == 0 || !v.PluginArray || v.MimeTypes == 0 {
				t.Errorf("%s: %d plugins (a PluginArray: %v), %d MIME types", where, v.Plugins, v.PluginArray, v.MimeTypes)
			}
		}
	})
	t.Run("WindowChrome", func(t *testing.T) {
		for where, v := range windows {
			if !v.Chrome {
				t.Errorf("%s: no window.chrome", where)
			}
		}
	})
	t.Run("PermissionsAgree", func(t *testing.T) {
		agree := map[string]string{"default": "prompt", "denied": "denied", "granted": "granted"}
		for where, v := range windows {
			if agree[v.Notification] != v.Permission {
				t.Errorf("%s: Notification.permission %q but permissions.query says %q", where, v.Notification, v.Permission)
			}
		}
	})
	t.Run("ScreenHoldsWindow", func(t *testing.T) {
		for where, v := range windows {
			if v.Screen.Width < v.Outer.Width || v.Screen.Height < v.Outer.Height || v.Screen.AvailHeight < v.Outer.Height {
				t.Errorf("%s: screen %+v smaller than the window %+v", where, v.Screen, v.Outer)
			}
		}
		if p := r.Tells; p.Outer.Height <= p.Inner.Height {
			t.Errorf("the window (%+v) is no taller than its page (%+v): no toolbar", p.Outer, p.Inner)
		}
	})
	t.Run("WebGL", func(t *testing.T) {
		for where, v := range all {
			if v.WebGL.Renderer == "" || v.WebGL.Vendor == "Brian Paul" || strings.Contains(v.WebGL.Renderer, "OffScreen") {
				t.Errorf("%s: WebGL %+v", where, v.WebGL)
			}
			if v.WebGL != r.Tells.WebGL {
				t.Errorf("%s: WebGL %+v, the page's %+v", where, v.WebGL, r.Tells.WebGL)
			}
		}
	})
}

// TestOrdinaryUserAgentOption: a user agent the user gives is the one every
// document and worker sees.
func TestOrdinaryUserAgentOption(t *testing.T) {
	const ua = "webagent-test/1.0 (like Gecko)"
	b := launch(t, Options{Logger: testLogger(), UserAgent: ua})
	r := probe(t, b)
	for where, v := range map[string]tellsResult{"page": r.Tells, "frame": r.Frame.Tells, "worker": r.Worker} {
		if v.UA != ua {
			t.Errorf("%s: user agent %q, want %q", where, v.UA, ua)
		}
	}
}

// TestOrdinaryLocale: a locale, which overrides the user agent's
// Accept-Language per tab, keeps the ordinary user agent.
func TestOrdinaryLocale(t *testing.T) {
	b := launch(t, Options{Logger: testLogger(), Locale: "de-DE"})
	r := probe(t, b)
	for where, v := range map[string]tellsResult{"page": r.Tells, "frame": r.Frame.Tells, "worker": r.Worker} {
		if strings.Contains(v.UA, "Headless") || len(v.Languages) == 0 || v.Languages[0] != "de-DE" {
			t.Errorf("%s: user agent %q, languages %v", where, v.UA, v.Languages)
		}
	}
}

// TestOrdinaryLeavesAttachedBrowser: a browser attached to keeps its own
// user agent, headless as it was started.
func TestOrdinaryLeavesAttachedBrowser(t *testing.T) {
	wsURL, _, _ := startChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b, err := Launch(ctx, Options{CDPURL: wsURL})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	r := probe(t, b)
	if !strings.Contains(r.Tells.UA, "HeadlessChrome") || !strings.Contains(r.Worker.UA, "HeadlessChrome") {
		t.Errorf("the attached browser's user agent was changed: page %q, worker %q", r.Tells.UA, r.Worker.UA)
	}
}

// TestOrdinaryHeadful: a browser with a window, on a virtual display where
// there is none, is as ordinary as the headless one.
func TestOrdinaryHeadful(t *testing.T) {
	tier.Slow(t)
	if _, err := exec.LookPath("Xvfb"); err != nil && os.Getenv("DISPLAY") == "" {
		t.Skip("no display and no Xvfb (apt-get install xvfb)")
	}
	b := launch(t, Options{Logger: testLogger(), Headful: true})
	r := probe(t, b)
	for where, d := range map[string]botdResult{"the page": r.Botd, "a cross-origin frame": r.Frame.Botd} {
		if d.Bot {
			t.Errorf("BotD in %s: a bot, %s (%v)", where, d.BotKind, d.Flagged)
		}
	}
	if p := r.Tells; p.Screen.Height < p.Outer.Height || p.Outer.Height <= p.Inner.Height || p.Webdriver {
		t.Errorf("headful page: %+v", p)
	}
}

// TestOrdinaryServer: the browser a Server shares (the eval harness's) is
// as ordinary as a launched one: BotD finds no bot in its tabs.
func TestOrdinaryServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := StartServer(ctx, Options{Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	b, err := Launch(ctx, Options{CDPURL: s.URL, Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	r := probe(t, b)
	for where, d := range map[string]botdResult{"the page": r.Botd, "a cross-origin frame": r.Frame.Botd} {
		if d.Bot {
			t.Errorf("BotD in %s: a bot, %s (%v)", where, d.BotKind, d.Flagged)
		}
	}
	if p := r.Tells; strings.Contains(p.UA, "Headless") || strings.Contains(r.Worker.UA, "Headless") || p.Webdriver || p.Screen.Height < p.Outer.Height {
		t.Errorf("the server's page: %+v", p)
	}
}

// TestOrdinaryBuiltinsLookNative: the built-ins webagent wraps when asked
// to (the canvas methods, for Options.Observable; by default it wraps
// nothing: TestNoDevToolsTrace) look as the browser's own to a script that
// inspects them, the way fingerprinting scripts look for lies.
func TestOrdinaryBuiltinsLookNative(t *testing.T) {
	t.Parallel()
	shared := newObservableTab(t)
	do(t, shared, contract.Action{Name: contract.ActGoto, URL: servePage(t, `<title>n</title><canvas></canvas>`)})
	v, err := shared.Eval(tctx(t), `(() => {
  const ts = Function.prototype.toString;
  const fns = {
    addEventListener: EventTarget.prototype.addEventListener,
    fillText: CanvasRenderingContext2D.prototype.fillText,
    fillStyleSetter: Object.getOwnPropertyDescriptor(CanvasRenderingContext2D.prototype, 'fillStyle').set,
    widthSetter: Object.getOwnPropertyDescriptor(HTMLCanvasElement.prototype, 'width').set,
    toString: ts,
  };
  const bad = [];
  for (const [k, f] of Object.entries(fns)) {
    const text = ts.call(f);
    if (!/^function [\w ]*\(\) \{ \[native code\] \}$/.test(text)) bad.push(k + ': ' + text.slice(0, 60));
    if (String(f) !== text) bad.push(k + ': String() differs');
    const own = Object.getOwnPropertyNames(f).sort().join(',');
    if (own !== 'length,name') bad.push(k + ': own properties ' + own);
    if ('prototype' in f) bad.push(k + ': has a prototype');
  }
  try { ts.call(null); bad.push('toString.call(null) did not throw'); } catch (e) { if (!(e instanceof TypeError)) bad.push('toString.call(null): ' + e); }
  if (ts.name !== 'toString' || ts.length !== 0) bad.push('toString is ' + ts.name + '/' + ts.length);
  return bad.join('; ');
})()`)
	if err != nil {
		t.Fatal(err)
	}
	if v != "" {
		t.Errorf("wrapped built-ins do not look native: %v", v)
	}
}
