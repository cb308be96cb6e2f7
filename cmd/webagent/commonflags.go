package main

import (
	"errors"
	"io"
	"log/slog"
	"net/url"
	"os"
	"strconv"
	"time"

	"github.com/rs/zerolog"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
)

// common holds the flags the commands that drive a browser share, in
// groups (commongroups.go): each command registers the groups it reads,
// and validate checks those.
type common struct {
	native         string // the vendor's tool of --tools, where a command registers it (apiflag.go)
	limits         agent.Limits
	chrome         string
	cdpURL         string
	headful        bool
	json           bool
	logLevel       string
	snapshotTokens int
	cpuThrottle    float64
	loadTimeout    time.Duration
	uploadDir      string
	downloadDir    string
	vision         visionFlag
	noScripts      bool
	// human answers ask_human; set only when stdin is a terminal.
	human    agent.Human
	nav      navFlags
	trace    traceFlags
	browser  browserFlags
	session  sessionFlags // registered by run and browser only
	cache    cacheFlags   // registered by run only
	policy   policyFlags  // registered by run and mcp
	inbox    inboxFlags   // registered by run, browser and mcp
	live     liveFlags    // registered by run only
	routines routinesFlag // registered by run and mcp
	otel     otelFlags
	// registered are the groups registered, the ones validate checks.
	registered commonGroup
}

// validate checks the common flags of the groups registered, in the order
// of their groups: the first problem is the one reported.
func (c *common) validate() error {
	checks := []struct {
		group commonGroup
		check func() error
	}{
		{groupNav, c.nav.validate},
		{groupTrace, c.trace.validate},
		{groupSettings, c.browser.validate},
		{groupOTel, c.otel.validate},
		{0, func() error { return c.session.validate(c.cdpURL) }},
		{groupFiles, c.validateFolders},
		{groupPage, c.validatePageBounds},
		{groupRemote, c.validateCDPURL},
		{groupLog, c.validateLogLevel},
	}
	for _, k := range checks {
		if k.group != 0 && c.registered&k.group == 0 {
			continue
		}
		if err := k.check(); err != nil {
			return err
		}
	}
	return nil
}

// validateFolders checks that --upload-dir and --download-dir, when given,
// are existing folders.
func (c *common) validateFolders() error {
	for _, d := range []struct{ flag, path string }{{"--upload-dir", c.uploadDir}, {"--download-dir", c.downloadDir}} {
		if d.path == "" {
			continue
		}
		if fi, err := os.Stat(d.path); err != nil || !fi.IsDir() {
			return usagef("%s %q is not a folder; create it first or pass an existing one", d.flag, d.path)
		}
	}
	return nil
}

// validatePageBounds checks the snapshot budget, the CPU throttling and
// the load timeout.
func (c *common) validatePageBounds() error {
	switch {
	case c.snapshotTokens < 1:
		return usagef("--snapshot-tokens is %d; it must be positive (the default is %d)", c.snapshotTokens, browser.DefaultSnapshotTokens)
	case c.cpuThrottle != 0 && !(c.cpuThrottle >= 1 && c.cpuThrottle <= browser.MaxCPUThrottle):
		return usagef("--cpu-throttle is %g; use a factor from 1 (none) to %d, e.g. 6 for a busy machine, or 0 for none", c.cpuThrottle, browser.MaxCPUThrottle)
	case c.loadTimeout <= 0:
		return usagef("--load-timeout is %s; use a positive duration such as 10s", c.loadTimeout)
	}
	return nil
}

func (c *common) validateCDPURL() error {
	if c.cdpURL != "" && !isDevToolsURL(c.cdpURL) {
		return usagef("--cdp-url %q is not a DevTools address; use e.g. http://127.0.0.1:9222 or ws://127.0.0.1:9222/devtools/browser/ID", c.cdpURL)
	}
	return nil
}

func (c *common) validateLogLevel() error {
	if _, err := zerolog.ParseLevel(c.logLevel); err != nil || c.logLevel == "" {
		return usagef("--log-level %q is not one of debug, info, warn, error, disabled", c.logLevel)
	}
	return nil
}

// isDevToolsURL reports whether s can be a browser's DevTools address: an
// absolute ws, wss, http or https URL.
func isDevToolsURL(s string) bool {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return false
	}
	switch u.Scheme {
	case "ws", "wss", "http", "https":
		return true
	}
	return false
}

// logger is the CLI's logger: zerolog's console writer on stderr, handed
// to the packages as the *slog.Logger their APIs take.
func (c *common) logger(stderr io.Writer) *slog.Logger {
	lvl, _ := zerolog.ParseLevel(c.logLevel)
	zl := zerolog.New(zerolog.ConsoleWriter{Out: stderr, TimeFormat: "15:04:05"}).Level(lvl).With().Timestamp().Logger()
	return slog.New(zerolog.NewSlogHandler(zl))
}

// browserOptions are the browser options of the common flags, settings
// included (not the session's profile and state, which only run has).
func (c *common) browserOptions(log *slog.Logger) browser.Options {
	opts := browser.Options{
		ChromePath: c.chrome, CDPURL: c.cdpURL, Headful: c.headful, Logger: log,
		SnapshotTokens: c.snapshotTokens, CPUThrottle: c.cpuThrottle, UploadDir: c.uploadDir, DownloadDir: c.downloadDir,
		LoadTimeout: c.loadTimeout,
	}
	c.browser.apply(&opts)
	return opts
}

// loopOptions are the agent options of the common flags: the limits l
// (the flags', or eval's with its own default), vision and where pages
// may be opened.
func (c *common) loopOptions(l agent.Limits) []agent.Option {
	return []agent.Option{agent.WithLimits(l), agent.WithVision(c.vision.on), agent.WithVisionMarks(c.vision.marks), agent.WithScripts(!c.noScripts), agent.WithNavigation(c.nav.policy), agent.WithNativeTools(c.native)}
}

// visionFlag is --vision: a bool (--vision, --vision=false) or marks.
type visionFlag struct{ on, marks bool }

func (v *visionFlag) String() string {
	switch {
	case v == nil || !v.on:
		return "false"
	case v.marks:
		return "marks"
	}
	return "true"
}

func (v *visionFlag) Set(s string) error {
	if s == "marks" {
		*v = visionFlag{on: true, marks: true}
		return nil
	}
	on, err := strconv.ParseBool(s)
	if err != nil {
		return errors.New("want true, false or marks")
	}
	*v = visionFlag{on: on}
	return nil
}

// IsBoolFlag lets --vision stand alone.
func (v *visionFlag) IsBoolFlag() bool { return true }

// Words are the values --vision takes besides true and false.
func (v *visionFlag) Words() []string { return []string{"marks"} }
