package launcher

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
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
var versionRE = regexp.MustCompile(`\b(?:Chromium|Chrome)\s+(\d+)\.\d+\.\d+\.\d+\b`)

// versions caches the major version of each binary, by path and
// modification time: a Launch after the first starts no extra process.
var versions sync.Map // versionKey -> string

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
	major, err := majorVersion(ctx, p)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Mozilla/5.0 (%s) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%s.0.0.0 Safari/537.36", uaPlatform(runtime.GOOS), major), nil
}

// majorVersion is the major version the binary at p prints.
func majorVersion(ctx context.Context, p string) (string, error) {
	var key versionKey
	if fi, err := os.Stat(p); err == nil {
		key = versionKey{p, fi.ModTime()}
		if v, ok := versions.Load(key); ok {
			return v.(string), nil
		}
	}
	out, err := exec.CommandContext(ctx, p, "--version").Output()
	if ctx.Err() != nil {
		return "", fmt.Errorf("browser: asking %s for its version: %w", p, ctx.Err())
	}
	if err != nil {
		return "", fmt.Errorf("browser: asking %s for its version: %w", p, err)
	}
	m := versionRE.FindStringSubmatch(string(out))
	if m == nil {
		return "", fmt.Errorf("browser: %s printed no Chromium version: %q", p, strings.TrimSpace(string(out)))
	}
	if key.path != "" {
		versions.Store(key, m[1])
	}
	return m[1], nil
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
