package launcher

import (
	"os"
	"path/filepath"
)

// Chromium's own temporary files: a launched browser keeps its process
// singleton socket and lock in a folder of its own under TMPDIR
// (org.chromium.Chromium.XXXXXX), which only a graceful exit removes; a
// browser that is killed, as Close does, leaves it behind. So each launched
// browser gets a temporary folder of its own as TMPDIR, removed with its
// profile.

// TempPrefix starts the name of each browser's temporary folder.
const TempPrefix = "webagent-tmp-"

// maxSocketPath is the longest path a Unix socket can have on Linux
// (sun_path holds 108 bytes with the terminating NUL).
const maxSocketPath = 107

// socketSuffix is as long as what Chromium adds to TMPDIR for its socket:
// "/org.chromium.Chromium.XXXXXX/SingletonSocket".
const socketSuffix = "/org.chromium.Chromium.XXXXXX/SingletonSocket"

// newChromeTemp makes the temporary folder for a browser about to start and
// returns it with the environment entry that gives it to Chromium. It is
// made in the system's temporary folder, or in /tmp where that one's path
// is so long that Chromium's socket would not fit under it; when neither
// works it returns "" and the browser uses the system's folder as before.
func newChromeTemp() (dir, env string) {
	for _, base := range []string{os.TempDir(), "/tmp"} {
		dir, err := os.MkdirTemp(base, TempPrefix)
		if err != nil {
			continue
		}
		if abs, err := filepath.Abs(dir); err == nil && len(abs)+len(socketSuffix) <= maxSocketPath && markOwner(abs) == nil {
			return abs, "TMPDIR=" + abs
		}
		os.RemoveAll(dir)
	}
	return "", ""
}

// removeTemp removes a browser's temporary folder, if it has one.
func removeTemp(dir string) error {
	if dir == "" {
		return nil
	}
	return RemoveAll(dir)
}
