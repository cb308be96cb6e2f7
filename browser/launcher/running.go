package launcher

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// FindRunning returns the DevTools address of a Chrome or Chromium the
// user runs with remote debugging on (chrome://inspect/#remote-debugging
// in Chrome 144 and later, or --remote-debugging-port), from the
// DevToolsActivePort file it writes in its profile: userDataDir's, else
// the usual profiles of Chrome and Chromium. It checks that the browser
// answers on that port.
func FindRunning(userDataDir string) (string, error) {
	dirs := []string{userDataDir}
	if userDataDir == "" {
		dirs = defaultProfiles()
	}
	var tried []string
	for _, d := range dirs {
		data, err := os.ReadFile(filepath.Join(d, "DevToolsActivePort"))
		if err != nil {
			tried = append(tried, d)
			continue
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		port, err := strconv.Atoi(strings.TrimSpace(lines[0]))
		if err != nil || port <= 0 || port > 65535 || len(lines) < 2 {
			return "", fmt.Errorf("%s/DevToolsActivePort is not a port and a path", d)
		}
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		c, err := net.DialTimeout("tcp", addr, 2*time.Second)
		if err != nil {
			return "", fmt.Errorf("the browser of %s does not answer on port %d (it may have exited; start it again, and turn on remote debugging at chrome://inspect/#remote-debugging)", d, port)
		}
		c.Close()
		return "ws://" + addr + strings.TrimSpace(lines[1]), nil
	}
	return "", errors.New("no running Chrome or Chromium with remote debugging on was found (looked in " + strings.Join(tried, ", ") +
		"); in Chrome 144 or later turn it on at chrome://inspect/#remote-debugging, or start the browser with --remote-debugging-port=9222, or pass --cdp-url")
}

// defaultProfiles are the usual profile folders of Chrome and Chromium.
func defaultProfiles() []string {
	home, _ := os.UserHomeDir()
	cfg := os.Getenv("XDG_CONFIG_HOME")
	if cfg == "" {
		cfg = filepath.Join(home, ".config")
	}
	var out []string
	for _, n := range []string{"google-chrome", "google-chrome-beta", "google-chrome-unstable", "chromium"} {
		out = append(out, filepath.Join(cfg, n))
	}
	mac := filepath.Join(home, "Library", "Application Support")
	return append(out, filepath.Join(mac, "Google", "Chrome"), filepath.Join(mac, "Chromium"))
}
