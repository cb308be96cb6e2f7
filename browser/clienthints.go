package browser

import (
	"runtime"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"

	"github.com/webagent/webagent/browser/launcher"
)

// Client hints of an ordinary browser. The --user-agent switch that takes
// HeadlessChrome out of the user agent (ordinary.go) also makes Chromium
// answer only the low-entropy client hints: getHighEntropyValues gives no
// fullVersionList, architecture or bitness, and no Sec-CH-UA-Full-Version-
// List reaches a site that asks for it, which a person's Chromium always
// answers. Each tab is given them back with Emulation.setUserAgentOverride:
// the same user agent, and the metadata that Chromium itself reports
// without the switch (the brands of the binary's version, its full version,
// the machine's architecture). A tab's dedicated workers and
// its frames of the same site share the tab's; a frame of another site,
// which runs in a process of its own, keeps the low-entropy hints only.
//
// Linux only: the platform version a person's Chromium gives on macOS or
// Windows is the system's, which webagent would have to make up.

// uaHints is what a tab's client hints are made from.
type uaHints struct {
	ua      string           // the user agent the switch gave
	version launcher.Version // the binary's
}

// wantsHints reports whether tabs get the high-entropy client hints: a
// browser launched by this Browser with the ordinary user agent, on Linux.
func (b *Browser) wantsHints() bool {
	return b.hints.ua != "" && b.hints.version.Full != "" && runtime.GOOS == "linux"
}

// uaMetadata is Emulation.UserAgentMetadata with the fullVersion that
// cdproto leaves out (deprecated, but what navigator.userAgentData gives as
// uaFullVersion, which a person's Chromium fills).
type uaMetadata struct {
	Brands          []*emulation.UserAgentBrandVersion `json:"brands"`
	FullVersionList []*emulation.UserAgentBrandVersion `json:"fullVersionList"`
	FullVersion     string                             `json:"fullVersion"`
	Platform        string                             `json:"platform"`
	PlatformVersion string                             `json:"platformVersion"`
	Architecture    string                             `json:"architecture"`
	Model           string                             `json:"model"`
	Mobile          bool                               `json:"mobile"`
	Bitness         string                             `json:"bitness"`
	Wow64           bool                               `json:"wow64"`
	FormFactors     []string                           `json:"formFactors"`
}

// uaOverrideParams are Emulation.setUserAgentOverride's, with uaMetadata.
type uaOverrideParams struct {
	UserAgent         string      `json:"userAgent"`
	AcceptLanguage    string      `json:"acceptLanguage,omitempty"`
	UserAgentMetadata *uaMetadata `json:"userAgentMetadata,omitempty"`
}

// setUserAgentOverride is Emulation.setUserAgentOverride with uaMetadata.
var setUserAgentOverride = cdp.Command[uaOverrideParams, cdp.Empty]{Method: emulation.CommandSetUserAgentOverride}

// uaMetadata returns the client hints of an ordinary Chromium of the
// binary's version: its brands, each with its full version, and the
// machine's architecture. Linux gives no platform version or model.
func (b *Browser) uaMetadata() *uaMetadata {
	v := b.hints.version
	md := &uaMetadata{
		Platform:    "Linux",
		FullVersion: v.Full,
		FormFactors: []string{"Desktop"},
	}
	md.Architecture, md.Bitness = archHints(runtime.GOARCH)
	for _, br := range v.Brands() {
		md.Brands = append(md.Brands, &emulation.UserAgentBrandVersion{Brand: br.Brand, Version: br.Version})
		md.FullVersionList = append(md.FullVersionList, &emulation.UserAgentBrandVersion{Brand: br.Brand, Version: br.FullVersion})
	}
	return md
}

// archHints are the architecture and bitness client hints Chromium gives
// on the machine architecture goarch.
func archHints(goarch string) (arch, bitness string) {
	switch goarch {
	case "arm64":
		return "arm", "64"
	case "arm":
		return "arm", "32"
	case "386":
		return "x86", "32"
	default:
		return "x86", "64"
	}
}
