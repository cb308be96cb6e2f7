package launcher

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The user agent of an ordinary browser. A headless Chromium names itself
// HeadlessChrome in its user agent, in every page, frame and worker; the
// --user-agent switch is the one place that changes it in all of them and
// in the User-Agent header alike. OrdinaryUserAgent gives the string the
// same Chromium sends with a window, read from the binary's own version.

// versionRE finds the version in `chromium --version`, e.g. "Chromium
// 156.0.8078.79 built on Debian GNU/Linux 12" or "Google Chrome
// 131.0.6778.85".
var versionRE = regexp.MustCompile(`\b(Chromium|Google Chrome|Chrome)\s+((\d+)\.\d+\.\d+\.\d+)\b`)

// versions caches the version of each binary, by path and modification
// time: a Launch after the first starts no extra process.
var versions sync.Map // versionKey -> Version

type versionKey struct {
	path string
	mod  time.Time
}

// OrdinaryUserAgent returns the user agent the Chromium at path (Find's
// rules) sends when it runs with a window, such as "Mozilla/5.0 (X11;
// Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0
// Safari/537.36": Chromium's reduced user agent, which gives only the
// major version and one platform string per system. It asks the binary
// for its version (`--version`) within ctx, once per binary.
func OrdinaryUserAgent(ctx context.Context, path string) (string, error) {
	p, err := Find(path)
	if err != nil {
		return "", err
	}
	v, err := BrowserVersion(ctx, p)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Mozilla/5.0 (%s) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%s.0.0.0 Safari/537.36", uaPlatform(runtime.GOOS), v.Major), nil
}

// Version is what a Chromium binary says it is.
type Version struct {
	Name  string // "Chromium" or "Google Chrome"
	Full  string // e.g. 156.0.8078.79
	Major string // e.g. 156
}

// BrowserVersion returns the version the Chromium at path (Find's rules)
// prints with --version, asked within ctx once per binary.
func BrowserVersion(ctx context.Context, path string) (Version, error) {
	p, err := Find(path)
	if err != nil {
		return Version{}, err
	}
	var key versionKey
	if fi, err := os.Stat(p); err == nil {
		key = versionKey{p, fi.ModTime()}
		if v, ok := versions.Load(key); ok {
			return v.(Version), nil
		}
	}
	out, err := exec.CommandContext(ctx, p, "--version").Output()
	if ctx.Err() != nil {
		return Version{}, fmt.Errorf("browser: asking %s for its version: %w", p, ctx.Err())
	}
	if err != nil {
		return Version{}, fmt.Errorf("browser: asking %s for its version: %w", p, err)
	}
	m := versionRE.FindStringSubmatch(string(out))
	if m == nil {
		return Version{}, fmt.Errorf("browser: %s printed no Chromium version: %q", p, strings.TrimSpace(string(out)))
	}
	v := Version{Name: m[1], Full: m[2], Major: m[3]}
	if v.Name == "Chrome" {
		v.Name = "Google Chrome"
	}
	if key.path != "" {
		versions.Store(key, v)
	}
	return v, nil
}

// Brand is one entry of the client hints' brand list
// (navigator.userAgentData.brands, Sec-CH-UA).
type Brand struct{ Brand, Version, FullVersion string }

// Brands returns the brand list Chromium of version v reports in its
// client hints: Chromium's own brand, Google Chrome's too for Chrome, and
// a GREASE brand, in an order and with a GREASE name and version chosen
// by the major version, as the User-Agent Client Hints specification
// asks of browsers and Chromium does (its "updated algorithm", on by
// default since version 103).
func (v Version) Brands() []Brand {
	seed, err := strconv.Atoi(v.Major)
	if err != nil || seed < 0 {
		return nil
	}
	chars := []string{" ", "(", ":", "-", ".", "/", ")", ";", "=", "?", "_"}
	versions := []string{"8", "99", "24"}
	gv := versions[seed%len(versions)]
	grease := Brand{"Not" + chars[seed%len(chars)] + "A" + chars[(seed+1)%len(chars)] + "Brand", gv, gv + ".0.0.0"}
	chromium := Brand{"Chromium", v.Major, v.Full}
	if v.Name != "Google Chrome" {
		list := make([]Brand, 2)
		list[seed%2], list[(seed+1)%2] = grease, chromium
		return list
	}
	orders := [6][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	order := orders[seed%len(orders)]
	list := make([]Brand, 3)
	list[order[0]], list[order[1]], list[order[2]] = grease, chromium, Brand{"Google Chrome", v.Major, v.Full}
	return list
}

// uaPlatform is the platform part of Chromium's reduced user agent on the
// system goos: one fixed string per system, whatever the machine.
func uaPlatform(goos string) string {
	switch goos {
	case "darwin":
		return "Macintosh; Intel Mac OS X 10_15_7"
	case "windows":
		return "Windows NT 10.0; Win64; x64"
	default:
		return "X11; Linux x86_64"
	}
}
