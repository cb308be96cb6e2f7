package launcher

import (
	"fmt"
	"maps"
	"slices"
)

// Flags are Chromium's command-line switches: a name, without the leading
// --, and its value; true for a switch that takes none, false to leave it
// out.
type Flags map[string]any

// args returns the switches as command-line arguments, sorted by name.
func (f Flags) args() []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(f)) {
		switch v := f[name].(type) {
		case bool:
			if v {
				out = append(out, "--"+name)
			}
		default:
			out = append(out, fmt.Sprintf("--%s=%v", name, v))
		}
	}
	return out
}

// DisabledFeatures are the Chromium features webagent's browsers run
// without (--disable-features). DeferRendererTasksAfterInput holds a page's
// tasks back after a click or key until the next frame is drawn, which
// makes a user's next paint come sooner; for an agent it only delays
// seeing what the input did (a form's navigation, a handler's timer) by up
// to a frame, about 17 ms an action. Chromium's own order of tasks and
// frames before that feature is what the page gets.
//
// The optimization guide's hints and models and the network time service
// are Chromium asking Google servers of its own accord: off, so that what
// leaves the browser is what its pages ask for.
const DisabledFeatures = "Translate,MediaRouter,DeferRendererTasksAfterInput," +
	"OptimizationHints,OptimizationHintsFetching,OptimizationGuideModelDownloading,OptimizationTargetPrediction," +
	"NetworkTimeServiceQuerying"

// offline are the switches that keep Chromium off the network where
// nobody asked it to go: no background requests, no component or sync
// updates, no QUIC probes, no first-run pages, no WebRTC around the proxy.
var offline = Flags{
	"disable-background-networking": true,
	"disable-component-update":      true,
	"disable-sync":                  true,
	"no-first-run":                  true,
	"disable-quic":                  true,
	// WebRTC sends no UDP the browser's proxy does not carry, and a proxy
	// carries none: a page's peer connection reaches no host by itself.
	"webrtc-ip-handling-policy": "disable_non_proxied_udp",
	// Chromium asks Google's account service who is signed in every few
	// seconds, sign-in or not; it asks a host that cannot exist (RFC 6761)
	// instead, which the browser's egress drops without a word.
	"gaia-url": "https://" + QuietHost,
}

// BaseFeatures are the features a browser launched for one Browser turns
// on. None of them shows a page anything a plain Chromium does not.
const BaseFeatures = "NetworkService,NetworkServiceInProcess"

// PageToolsFeature lets every page offer tools (WebMCP: document.modelContext
// and the globals ModelContext, ToolActivatedEvent, ToolCancelEvent), which
// a plain Chromium shows only to a page with a token of Chrome's WebMCP
// origin trial. browser.Options.PageTools adds it to enable-features.
const PageToolsFeature = "WebMCPTesting"

// QuietHost is where Chromium's own account calls go (gaia-url): a name
// under .invalid, which never resolves.
const QuietHost = "gaia.webagent.invalid"

// BrowserFlags are the switches of a browser launched for one Browser
// (browser.Launch), headless or with a window: most of those chromedp's
// ExecAllocator gives by default, which webagent has always run with, and
// webagent's own. Unlike chromedp's, they leave out enable-automation and
// turn off Blink's AutomationControlled feature, so that a page sees no
// navigator.webdriver and no "controlled by automated software" bar
// shows. headless also hides the scroll bars and mutes audio.
func BrowserFlags(headless bool) Flags {
	f := Flags{
		"no-default-browser-check":               true,
		"enable-features":                        BaseFeatures,
		"disable-background-timer-throttling":    true,
		"disable-backgrounding-occluded-windows": true,
		"disable-breakpad":                       true,
		"disable-client-side-phishing-detection": true,
		"disable-default-apps":                   true,
		"disable-dev-shm-usage":                  true,
		"disable-extensions":                     true,
		"disable-hang-monitor":                   true,
		"disable-ipc-flooding-protection":        true,
		"disable-popup-blocking":                 true,
		"disable-prompt-on-repost":               true,
		"disable-renderer-backgrounding":         true,
		"force-color-profile":                    "srgb",
		"metrics-recording-only":                 true,
		"safebrowsing-disable-auto-update":       true,
		"password-store":                         "basic",
		"use-mock-keychain":                      true,
		"deny-permission-prompts":                true,
		"disable-features":                       DisabledFeatures,
		// navigator.webdriver is false, as in a browser a person runs.
		"disable-blink-features": "AutomationControlled",
	}
	maps.Copy(f, offline)
	if headless {
		// The headless mode that is the whole browser (plugins,
		// window.chrome, permissions), not the old headless shell.
		f["headless"] = "new"
		f["hide-scrollbars"] = true
		f["mute-audio"] = true
		// Drawing in software, whatever the machine. A window draws
		// with the machine's GPU, and WebGL names it, as a person's
		// Chromium does; without one Chromium falls back to SwiftShader.
		f["disable-gpu"] = true
	}
	return f
}

// ServerFlags are the switches of a browser shared by many Browsers
// (browser.StartServer), which listens on a loopback port. They differ
// from BrowserFlags in a few switches (no disable-popup-blocking, crash
// reporting off, no GPU with a window either): the two sets are kept as
// each was measured and tested, until a change to one of them is made on
// purpose for both.
func ServerFlags(headless bool) Flags {
	f := Flags{
		"no-default-browser-check":               true,
		"disable-gpu":                            true,
		"disable-extensions":                     true,
		"disable-default-apps":                   true,
		"disable-dev-shm-usage":                  true,
		"disable-background-timer-throttling":    true,
		"disable-backgrounding-occluded-windows": true,
		"disable-renderer-backgrounding":         true,
		"disable-features":                       DisabledFeatures,
		"deny-permission-prompts":                true,
		"mute-audio":                             true,
		"hide-scrollbars":                        true,
		"password-store":                         "basic",
		"use-mock-keychain":                      true,
		"disable-breakpad":                       true,
		"disable-crash-reporter":                 true,
		"no-crashpad":                            true,
		"remote-debugging-address":               "127.0.0.1",
		// navigator.webdriver is false, as in a browser a person runs.
		"disable-blink-features": "AutomationControlled",
	}
	maps.Copy(f, offline)
	if headless {
		f["headless"] = "new"
	}
	return f
}
