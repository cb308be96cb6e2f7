package main

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/webagent/webagent/browser"
)

// commonGroup is one group of common's flags; a command registers the
// groups it reads.
type commonGroup uint16

const (
	groupLocal    commonGroup = 1 << iota // --chrome, --headful, --headless
	groupRemote                           // --cdp-url
	groupPage                             // --snapshot-tokens, --load-timeout, --cpu-throttle
	groupFiles                            // --upload-dir, --download-dir
	groupSettings                         // the browser's settings (browserFlags)
	groupNav                              // where pages may go (navFlags)
	groupLoop                             // the loop's bounds and tools
	groupTrace                            // --trace, --trace-har
	groupJSON                             // --json
	groupLog                              // --log-level
	groupOTel                             // --otel-endpoint, --otel-content
	groupConfig                           // --config
)

// The titles of the groups in help.
const (
	titleBrowser  = "Browser"
	titleSettings = "Browser settings"
	titleNav      = "Where pages may go"
	titleLoop     = "Agent loop"
	titleOutput   = "Output and tracing"
	titleModel    = "Model"
	titleTask     = "Task"
	titleSession  = "Lasting sessions"
	titlePolicy   = "Action policy"
	titleInbox    = "Inbox"
	titleLive     = "Live view"
	titleCache    = "Run cache"
	titleRoutines = "Routines"
	titleFleet    = "Fleet (Temporal)"
)

// registerGroups registers the groups gs of c's flags into g, under their
// titles, in common's order.
func (c *common) registerGroups(g *flagGroups, gs commonGroup) {
	type part struct {
		group commonGroup
		title string
		reg   func(fs *flag.FlagSet)
	}
	for _, p := range []part{
		{groupLocal, titleBrowser, c.registerLocal},
		{groupRemote, titleBrowser, c.registerRemote},
		{groupPage, titleBrowser, c.registerPage},
		{groupFiles, titleBrowser, c.registerFiles},
		{groupSettings, titleSettings, c.browser.register},
		{groupNav, titleNav, c.nav.register},
		{groupLoop, titleLoop, c.registerLoop},
		{groupJSON, titleOutput, c.registerJSON},
		{groupLog, titleOutput, c.registerLog},
		{groupTrace, titleOutput, c.trace.register},
		{groupOTel, titleOutput, c.otel.register},
		{groupConfig, titleOutput, registerConfig},
	} {
		if gs&p.group != 0 {
			g.add(p.title, p.reg)
			c.registered |= p.group
		}
	}
}

// The groups of the commands that run the agent's loop in a browser of
// their own (run, demo, mcp).
const groupsRun = groupLocal | groupRemote | groupPage | groupFiles | groupSettings | groupNav | groupLoop | groupLog | groupOTel | groupConfig

// registerConfig adds --config, which parseFlags reads (applyConfig).
func registerConfig(fs *flag.FlagSet) {
	fs.String(configFlag, "", "read flags from this YAML file, keys named as the flags (model: llama3.1); flags given on the command line override it, and it overrides the WEBAGENT_… variables")
}

// registerLocal adds the flags of a browser this machine starts.
func (c *common) registerLocal(fs *flag.FlagSet) {
	fs.StringVar(&c.chrome, "chrome", "", "path to the Chromium binary (default $CHROME_PATH, else chromium on PATH)")
	fs.BoolVar(&c.headful, "headful", false, "show the browser window")
	fs.BoolFunc("headless", "run the browser without a window (the default); --headless=false is --headful", func(v string) error {
		headless, err := strconv.ParseBool(v)
		c.headful = !headless
		return err
	})
}

// registerRemote adds --cdp-url, a browser that runs already.
func (c *common) registerRemote(fs *flag.FlagSet) {
	fs.StringVar(&c.cdpURL, "cdp-url", "", "attach to a running browser at this DevTools URL instead of launching one")
}

// registerPage adds the bounds of a page: its snapshot, its load, its CPU.
func (c *common) registerPage(fs *flag.FlagSet) {
	fs.IntVar(&c.snapshotTokens, "snapshot-tokens", browser.DefaultSnapshotTokens, "size budget of a page snapshot in (estimated) tokens: past it, text far from the viewport is summarised; every actionable element is kept")
	fs.DurationVar(&c.loadTimeout, "load-timeout", browser.DefaultLoadTimeout, "how long a page may take to arrive before the agent works with what has arrived (a page that trickles in, a script that never answers) and is told it is still loading")
	fs.Float64Var(&c.cpuThrottle, "cpu-throttle", 0, fmt.Sprintf("slow every page and frame down N times (CDP CPU throttling), to reproduce a slow or busy machine; 1 to %d, 0 for none", browser.MaxCPUThrottle))
}

// registerFiles adds the folders of uploads and downloads.
func (c *common) registerFiles(fs *flag.FlagSet) {
	fs.StringVar(&c.uploadDir, "upload-dir", "", "folder whose files the agent may upload; without it, uploads are refused")
	fs.StringVar(&c.downloadDir, "download-dir", "", "folder for files the pages download (default a temporary folder, removed at the end)")
}

// registerLoop adds the loop's bounds and the tools it offers the model.
func (c *common) registerLoop(fs *flag.FlagSet) {
	registerLimits(fs, &c.limits)
	fs.Var(&c.vision, "vision", "offer the model a screenshot tool (for models that accept images); --vision=marks also sends with each observation a screenshot with the refs drawn on their boxes, to act by ref or at a point")
	fs.BoolFunc("scripts", "offer the model the script tool, many page steps in one model call (default true; --scripts=false for one call a step)", func(v string) error {
		on, err := strconv.ParseBool(v)
		c.noScripts = !on
		return err
	})
}

func (c *common) registerJSON(fs *flag.FlagSet) {
	fs.BoolVar(&c.json, "json", false, "print the result as one JSON object on stdout")
}

func (c *common) registerLog(fs *flag.FlagSet) {
	fs.StringVar(&c.logLevel, "log-level", "warn", "log level on stderr: debug, info, warn, error or disabled")
}
