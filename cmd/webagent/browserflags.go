package main

import (
	"flag"
	"log/slog"
	"os"
	"strings"

	"github.com/webagent/webagent/browser"
)

// browserFlags are the browser settings: --user-agent, --viewport,
// --locale, --timezone, --proxy, --extra-header and --consent, each
// defaulting to a WEBAGENT_… variable. package browser checks the values.
type browserFlags struct {
	userAgent, viewport, locale, timezone, proxy, consent string
	headers                                               headerFlag
	readOnly, observable, pageTools                       bool
	bot                                                   botFlags
	// parsed by validate
	width, height int
	headerMap     map[string]string
}

// browserEnv maps each setting's flag to its environment variable.
var browserEnv = map[string]string{
	"user-agent":   "WEBAGENT_USER_AGENT",
	"viewport":     "WEBAGENT_VIEWPORT",
	"locale":       "WEBAGENT_LOCALE",
	"timezone":     "WEBAGENT_TIMEZONE",
	"proxy":        "WEBAGENT_PROXY",
	"extra-header": "WEBAGENT_EXTRA_HEADERS",
	"consent":      "WEBAGENT_CONSENT",
}

func (f *browserFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.userAgent, "user-agent", "", "the browser's user agent (default $WEBAGENT_USER_AGENT, else Chromium's)")
	fs.StringVar(&f.viewport, "viewport", "", "the viewport in CSS pixels, WIDTHxHEIGHT (default $WEBAGENT_VIEWPORT, else 1280x900)")
	fs.StringVar(&f.locale, "locale", "", "the pages' language and formats, a tag such as de-DE (default $WEBAGENT_LOCALE, else the system's)")
	fs.StringVar(&f.timezone, "timezone", "", "the pages' time zone, e.g. Europe/Berlin (default $WEBAGENT_TIMEZONE, else the system's)")
	fs.StringVar(&f.proxy, "proxy", "", "send the browser's traffic through this proxy, http://[user:password@]host:port or socks5://host:port (default $WEBAGENT_PROXY); the password is never logged")
	fs.StringVar(&f.consent, "consent", "", "answer cookie-consent banners before the agent sees a page: reject or accept (default $WEBAGENT_CONSENT, else the model decides)")
	fs.Var(&f.headers, "extra-header", "\"Name: value\" a header sent with every request to every site (repeatable; default $WEBAGENT_EXTRA_HEADERS, one per line)")
	fs.BoolVar(&f.readOnly, "read-only", false, "stop, inside the browser, every request that would write to a site (a form that posts; fetch or XHR with POST, PUT, PATCH, DELETE): "+
		"nothing is sent, the trace records its method, URL and payload, and the model is told what would have been sent")
	fs.BoolVar(&f.pageTools, "page-tools", false, "let every page offer the agent its own tools (WebMCP; the snapshot lists them, page_tool calls them): Chromium runs with its WebMCPTesting feature, "+
		"so every page can see document.modelContext, which a plain Chromium does not show; without it only a page with a token of Chrome's WebMCP origin trial offers tools")
	fs.BoolVar(&f.observable, "observable", false, "let pages observe that a DevTools client drives the browser, for the canvas log (the snapshot lists what pages draw on canvases) "+
		"and the pages' console messages in traces; without it a page sees no trace of webagent (on for --miniwob)")
	f.bot.register(fs)
}

// validate reads the environment for the settings not given and checks
// them.
func (f *browserFlags) validate() error {
	env := func(v *string, name string) {
		if *v == "" {
			*v = os.Getenv(browserEnv[name])
		}
	}
	env(&f.userAgent, "user-agent")
	env(&f.viewport, "viewport")
	env(&f.locale, "locale")
	env(&f.timezone, "timezone")
	env(&f.proxy, "proxy")
	env(&f.consent, "consent")
	if len(f.headers) == 0 {
		for line := range strings.SplitSeq(os.Getenv(browserEnv["extra-header"]), "\n") {
			if strings.TrimSpace(line) != "" {
				f.headers = append(f.headers, line)
			}
		}
	}
	if f.viewport != "" {
		w, h, err := browser.ParseViewport(f.viewport)
		if err != nil {
			return usagef("--viewport: %v", err)
		}
		f.width, f.height = w, h
	}
	if f.locale != "" {
		if err := browser.CheckLocale(f.locale); err != nil {
			return usagef("--locale: %v", err)
		}
	}
	if f.timezone != "" {
		if err := browser.CheckTimezone(f.timezone); err != nil {
			return usagef("--timezone: %v", err)
		}
	}
	if err := browser.CheckConsent(f.consent); err != nil {
		return usagef("--consent: %v", err)
	}
	if strings.ContainsAny(f.userAgent, "\r\n") {
		return usagef("--user-agent has a line break; give it on one line")
	}
	if f.proxy != "" {
		if _, err := browser.ParseProxy(f.proxy); err != nil {
			return usagef("--proxy: %v", err)
		}
	}
	f.headerMap = map[string]string{}
	for _, h := range f.headers {
		name, value, err := browser.ParseHeader(h)
		if err != nil {
			return usagef("--extra-header: %v", err)
		}
		f.headerMap[name] = value
	}
	return f.bot.validate()
}

// apply sets the settings in o.
func (f *browserFlags) apply(o *browser.Options) {
	o.UserAgent, o.Locale, o.Timezone, o.Proxy = f.userAgent, f.locale, f.timezone, f.proxy
	o.Consent = f.consent
	o.ReadOnly = f.readOnly
	o.PageTools = f.pageTools
	o.Observable = f.observable
	o.Width, o.Height = f.width, f.height
	if len(f.headerMap) > 0 {
		o.ExtraHeaders = f.headerMap
	}
	f.bot.apply(o)
}

// hidden are the values that must not reach stderr: the proxy's password
// and the longer header values (an Authorization header's token), masked
// like secrets.
func (f *browserFlags) hidden() map[string]string {
	m := map[string]string{}
	if p, err := browser.ParseProxy(f.proxy); err == nil && p.Password != "" {
		m["proxy-password"] = p.Password
	}
	for name, v := range f.headerMap {
		if len(v) >= 8 {
			m["header-"+strings.ToLower(name)] = v
		}
	}
	return m
}

// headerFlag collects --extra-header values; its String never shows one.
type headerFlag []string

func (h *headerFlag) String() string { return "" }
func (h *headerFlag) Set(v string) error {
	if _, _, err := browser.ParseHeader(v); err != nil {
		return err
	}
	*h = append(*h, v)
	return nil
}

// browserOptions are eval's browser options: its flags and the settings.
func (o *evalOpts) browserOptions(log *slog.Logger, traces bool) browser.Options {
	opts := browser.Options{ChromePath: o.chrome, Headful: o.headful, Logger: log, SnapshotTokens: o.snapshotTokens, CPUThrottle: o.cpuThrottle, LoadTimeout: o.loadTimeout,
		RecordActivity: traces}
	o.browser.apply(&opts)
	// MiniWoB++ draws its tasks on canvases, on pages that are no site.
	opts.Observable = opts.Observable || o.miniwob != ""
	return opts
}
