package browser

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // --timezone is checked also where the system has no zoneinfo (a slim container)

	"github.com/webagent/webagent/browser/launcher"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
)

// Browser settings: the user agent, viewport, locale, time zone, proxy and
// extra request headers a page sees (Options.UserAgent, Width and Height,
// Locale, Timezone, Proxy, ExtraHeaders). The Parse functions below are
// what the CLI and the config file use; Launch checks the same rules and
// returns a *ConfigError for a value that breaks them.

// MaxViewport is the largest viewport side accepted, in CSS pixels.
const MaxViewport = 10000

// ParseViewport reads a viewport written WxH, e.g. 1280x900.
func ParseViewport(s string) (width, height int, err error) {
	ws, hs, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if ok {
		width, err = strconv.Atoi(ws)
		if err == nil {
			height, err = strconv.Atoi(hs)
		}
	}
	if !ok || err != nil {
		return 0, 0, fmt.Errorf("viewport %q is not WIDTHxHEIGHT; write e.g. 1280x900", s)
	}
	if err := checkViewport(width, height); err != nil {
		return 0, 0, err
	}
	return width, height, nil
}

func checkViewport(w, h int) error {
	if w < 1 || h < 1 || w > MaxViewport || h > MaxViewport {
		return fmt.Errorf("viewport %dx%d is out of range: each side must be from 1 to %d CSS pixels, e.g. 1280x900", w, h, MaxViewport)
	}
	return nil
}

var localeRE = regexp.MustCompile(`^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)

// CheckLocale checks a BCP 47 language tag such as en-US or de-DE.
func CheckLocale(s string) error {
	if !localeRE.MatchString(s) {
		return fmt.Errorf("locale %q is not a language tag; write e.g. en-US, de-DE or fr", s)
	}
	return nil
}

// CheckTimezone checks an IANA time zone name such as Europe/Berlin.
func CheckTimezone(s string) error {
	if s == "" || strings.EqualFold(s, "local") {
		return fmt.Errorf("time zone %q is not an IANA name; write e.g. Europe/Berlin, America/New_York or UTC", s)
	}
	if _, err := time.LoadLocation(s); err != nil {
		return fmt.Errorf("time zone %q is not known; write an IANA name such as Europe/Berlin, America/New_York or UTC", s)
	}
	return nil
}

// Proxy is a parsed Options.Proxy: the server the egress goes through and,
// when the URL had them, the credentials it sends.
// Its String never shows the password.
type Proxy struct {
	// Server is scheme://host:port, without credentials.
	Server             string
	Username, Password string
}

func (p Proxy) String() string {
	if p.Username == "" {
		return p.Server
	}
	return strings.Replace(p.Server, "://", "://"+p.Username+":xxxxx@", 1)
}

// ParseProxy reads a proxy URL: http://host:port, https://…, socks5://…,
// optionally with user:password@ (kept out of Chromium's command line, of
// logs and of errors). Chromium does not support credentials for SOCKS.
func ParseProxy(s string) (Proxy, error) {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.Hostname() == "" {
		// url.Parse's error quotes the input, which may hold a password.
		return Proxy{}, fmt.Errorf("proxy %q is not a URL; write e.g. http://proxy.example:3128 or http://user:password@proxy.example:3128", redactProxy(s))
	}
	switch u.Scheme {
	case "http", "https", "socks4", "socks5":
	default:
		return Proxy{}, fmt.Errorf("proxy %q: the scheme %q is not supported; use http, https, socks4 or socks5", redactProxy(s), u.Scheme)
	}
	if u.Path != "" && u.Path != "/" || u.RawQuery != "" {
		return Proxy{}, fmt.Errorf("proxy %q has a path; give only scheme://host:port", redactProxy(s))
	}
	p := Proxy{Server: u.Scheme + "://" + u.Host}
	if u.User != nil {
		p.Username = u.User.Username()
		p.Password, _ = u.User.Password()
		if strings.HasPrefix(u.Scheme, "socks") {
			return Proxy{}, fmt.Errorf("proxy %q: Chromium cannot authenticate to a SOCKS proxy; use an http proxy, or one without credentials", redactProxy(s))
		}
	}
	return p, nil
}

// redactProxy hides the password of a proxy URL, also one that does not
// parse.
func redactProxy(s string) string {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok {
		scheme, rest = "", s
	}
	at := strings.LastIndex(rest, "@")
	if at < 0 {
		return s
	}
	user, _, _ := strings.Cut(rest[:at], ":")
	out := user + ":xxxxx" + rest[at:]
	if ok {
		out = scheme + "://" + out
	}
	return out
}

var headerNameRE = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

// forbiddenHeaders are request headers the browser sets itself.
var forbiddenHeaders = map[string]bool{"host": true, "content-length": true, "connection": true, "transfer-encoding": true, "cookie": true}

// ParseHeader reads an extra request header written "Name: value".
func ParseHeader(s string) (name, value string, err error) {
	name, value, ok := strings.Cut(s, ":")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if !ok || name == "" {
		return "", "", fmt.Errorf("header %q is not \"Name: value\"; write e.g. \"X-Team: qa\"", redactHeader(s))
	}
	if err := checkHeader(name, value); err != nil {
		return "", "", err
	}
	return name, value, nil
}

func checkHeader(name, value string) error {
	if !headerNameRE.MatchString(name) {
		return fmt.Errorf("header name %q has characters a header name cannot have", name)
	}
	if forbiddenHeaders[strings.ToLower(name)] {
		return fmt.Errorf("header %s is set by the browser itself and cannot be given (for cookies use --storage-state)", name)
	}
	if strings.ContainsAny(value, "\r\n\x00") {
		return fmt.Errorf("header %s: the value has a line break", name)
	}
	return nil
}

// redactHeader keeps a header's name: its value may be a credential.
func redactHeader(s string) string {
	name, _, ok := strings.Cut(s, ":")
	if !ok {
		if len(s) > 20 {
			return s[:3] + "…"
		}
		return s
	}
	return name + ": …"
}

// checkSettings validates the browser settings of opts.
func checkSettings(opts *Options) error {
	bad := func(err error, fix string) error {
		return &ConfigError{Problem: strings.TrimPrefix(err.Error(), "browser: "), Fix: fix, Err: err}
	}
	if opts.Width != 0 || opts.Height != 0 {
		if err := checkViewport(opts.Width, opts.Height); err != nil {
			return bad(err, "set both Width and Height, or neither for 1280x900")
		}
	}
	if opts.Locale != "" {
		if err := CheckLocale(opts.Locale); err != nil {
			return bad(err, "use a BCP 47 tag")
		}
	}
	if opts.Timezone != "" {
		if err := CheckTimezone(opts.Timezone); err != nil {
			return bad(err, "use an IANA time zone")
		}
	}
	if err := CheckConsent(opts.Consent); err != nil {
		return bad(err, `set Consent to "reject", "accept" or ""`)
	}
	if strings.ContainsAny(opts.UserAgent, "\r\n\x00") {
		return bad(errors.New("the user agent has a line break"), "give it on one line")
	}
	for name, value := range opts.ExtraHeaders {
		if err := checkHeader(name, value); err != nil {
			return bad(err, "fix or drop the header")
		}
	}
	if opts.CDPURL != "" && (opts.Proxy != "" || opts.UserDataDir != "") {
		return &ConfigError{Problem: "a proxy or a profile folder is given with a browser to attach to (CDPURL)",
			Fix: "give them to the browser you start (chromium --proxy-server, --user-data-dir), or let webagent launch one"}
	}
	if opts.Proxy != "" {
		p, err := ParseProxy(opts.Proxy)
		if err != nil {
			return bad(err, "fix the proxy URL")
		}
		opts.proxy = p
	}
	return nil
}

// applySettings gives one tab the user agent, locale, time zone and extra
// headers of the Options. The viewport is set with the tab (setupTab).
func (b *Browser) applySettings(ctx context.Context, t cdp.Session) error {
	o := b.opts
	ua := o.UserAgent
	var md *uaMetadata
	if b.wantsHints() {
		ua, md = b.hints.ua, b.uaMetadata()
	}
	if ua == "" && o.Locale != "" {
		ua = b.defaultUA
	}
	if ua != "" {
		if _, err := cdp.Call(ctx, t, setUserAgentOverride, uaOverrideParams{UserAgent: ua, AcceptLanguage: acceptLanguage(o.Locale), UserAgentMetadata: md}); err != nil {
			return fmt.Errorf("setting the user agent: %w", err)
		}
	}
	if o.Locale != "" {
		if _, err := cdp.Call(ctx, t, emulation.SetLocaleOverride, emulation.SetLocaleOverrideParams{Locale: strings.ReplaceAll(o.Locale, "-", "_")}); err != nil {
			return fmt.Errorf("setting the locale: %w", err)
		}
	}
	if o.Timezone != "" {
		if _, err := cdp.Call(ctx, t, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: o.Timezone}); err != nil {
			return fmt.Errorf("setting the time zone: %w", err)
		}
	}
	if len(o.ExtraHeaders) > 0 {
		h := network.Headers{}
		for k, v := range o.ExtraHeaders {
			h[k] = v
		}
		if _, err := cdp.Call(ctx, t, network.Enable, network.EnableParams{}); err != nil {
			return fmt.Errorf("setting the extra headers: %w", err)
		}
		if _, err := cdp.Call(ctx, t, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: h}); err != nil {
			return fmt.Errorf("setting the extra headers: %w", err)
		}
	}
	return nil
}

// acceptLanguage is the Accept-Language (and navigator.languages) of a
// locale: de-DE gives "de-DE,de".
func acceptLanguage(locale string) string {
	if locale == "" {
		return ""
	}
	if lang, _, ok := strings.Cut(locale, "-"); ok {
		return locale + "," + lang
	}
	return locale
}

// readDefaultUA notes the browser's own user agent, which a locale alone
// keeps (the override takes both).
func (b *Browser) readDefaultUA(ctx context.Context, s *session) error {
	if b.opts.UserAgent != "" || b.opts.Locale == "" {
		return nil
	}
	v, err := cdp.Call(ctx, s.browser, cdpbrowser.GetVersion, cdp.Empty{})
	if err != nil {
		return fmt.Errorf("reading the user agent: %w", err)
	}
	b.defaultUA = v.UserAgent
	return nil
}

// settingFlags are Chromium's command-line flags for the settings.
func settingFlags(o Options) map[string]any {
	f := map[string]any{}
	if o.PageTools {
		f["enable-features"] = launcher.BaseFeatures + "," + launcher.PageToolsFeature
	}
	maps.Copy(f, o.launchFlags)
	if o.UserAgent != "" {
		f["user-agent"] = o.UserAgent
	}
	if o.Locale != "" {
		f["lang"] = o.Locale
		f["accept-lang"] = acceptLanguage(o.Locale)
	}
	if o.proxy.Server != "" {
		f["proxy-server"] = o.proxy.Server
		// Loopback goes through the proxy too: what the user asked for.
		f["proxy-bypass-list"] = "<-loopback>"
	}
	return f
}
