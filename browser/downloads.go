package browser

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	cdpbrowser "github.com/chromedp/cdproto/browser"

	"github.com/webagent/webagent/browser/launcher"
)

// downloadPrefix starts the name of the temporary download folder made when
// Options.DownloadDir is not set.
const downloadPrefix = "webagent-downloads-"

// downloads saves what the pages download into one folder under the name
// the site suggested, and reports each finished download in the next
// snapshot's notices.
type downloads struct {
	b *Browser

	mu    sync.Mutex
	dir   string
	temp  bool              // dir was made by us and is removed on Close
	names map[string]string // GUID -> suggested file name
	pdfs  []string          // the downloaded PDFs: read_region f1 reads pdfs[0]
}

func (d *downloads) init(b *Browser) {
	d.b = b
	d.names = map[string]string{}
	if b.opts.DownloadDir != "" {
		d.dir = b.opts.DownloadDir
	}
}

// downloadDir returns the download folder, making it if needed.
func (b *Browser) downloadDir() (string, error) {
	d := &b.downloads
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.dir != "" {
		if err := os.MkdirAll(d.dir, 0o755); err != nil {
			return "", fmt.Errorf("browser: making the download folder: %w", err)
		}
		abs, err := filepath.Abs(d.dir)
		if err != nil {
			return "", err
		}
		d.dir = abs
		return d.dir, nil
	}
	dir, err := launcher.MkdirTemp(downloadPrefix)
	if err != nil {
		return "", fmt.Errorf("browser: making the download folder: %w", err)
	}
	d.dir, d.temp = dir, true
	return dir, nil
}

// folder returns the download folder, "" if downloads are not set up.
func (d *downloads) folder() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.dir
}

// handle follows the download events of the browser. It runs on the
// browser's event loop: it only renames a finished file.
func (d *downloads) handle(ev any) {
	switch e := ev.(type) {
	case *cdpbrowser.EventDownloadWillBegin:
		d.mu.Lock()
		d.names[e.GUID] = e.SuggestedFilename
		d.mu.Unlock()
	case *cdpbrowser.EventDownloadProgress:
		switch e.State {
		case cdpbrowser.DownloadProgressStateCompleted:
			d.completed(e)
		case cdpbrowser.DownloadProgressStateCanceled:
			d.mu.Lock()
			name := d.names[e.GUID]
			delete(d.names, e.GUID)
			d.mu.Unlock()
			d.b.notices.add(fmt.Sprintf("the download of %s was cancelled", strconv.Quote(name)))
		}
	}
}

func (d *downloads) completed(e *cdpbrowser.EventDownloadProgress) {
	d.mu.Lock()
	defer d.mu.Unlock()
	name, ok := d.names[e.GUID]
	if !ok {
		return // reported already
	}
	delete(d.names, e.GUID)
	src := e.FilePath
	if src == "" {
		src = filepath.Join(d.dir, e.GUID)
	}
	if filepath.Dir(src) != d.dir {
		// Another browser context's download on a shared Chromium: the
		// browser's events reach every client, its files are not ours.
		return
	}
	dst := uniquePath(d.dir, safeName(name))
	if err := os.Rename(src, dst); err != nil {
		d.b.log.Warn("naming a download", "error", err, "file", src)
		dst = src
	}
	size := int64(e.ReceivedBytes)
	if fi, err := os.Stat(dst); err == nil {
		size = fi.Size()
	}
	// The notice names the file, never the machine's folders.
	note := fmt.Sprintf("downloaded %s (%s) into the download folder", filepath.Base(dst), humanSize(size))
	if fileIsPDF(dst) && len(d.pdfs) < maxDownloadPDFs {
		d.pdfs = append(d.pdfs, dst)
		id := fmt.Sprintf("f%d", len(d.pdfs))
		note += fmt.Sprintf("; it is a PDF: read_region %s reads its text (%sp2 its page 2)", id, id)
	}
	d.b.notices.add(note)
}

// close removes the download folder if it was a temporary one.
func (d *downloads) close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.temp || d.dir == "" {
		return nil
	}
	if err := launcher.RemoveAll(d.dir); err != nil {
		return fmt.Errorf("browser: removing the download folder: %w", err)
	}
	return nil
}

// handOff gives away the temporary download folder (Browser.Abandon's
// reaper removes it): close no longer does. It returns the folder, or none.
func (d *downloads) handOff() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.temp || d.dir == "" {
		return nil
	}
	d.temp = false
	return []string{d.dir}
}

// safeName makes a suggested file name safe to use in the folder.
func safeName(name string) string {
	name = filepath.Base(strings.ReplaceAll(name, "\\", "/"))
	if name == "." || name == "/" || name == ".." || name == "" {
		return "download"
	}
	return name
}

// uniquePath returns dir/name, or dir/name (2).ext and so on if it exists.
func uniquePath(dir, name string) string {
	p := filepath.Join(dir, name)
	ext := filepath.Ext(name)
	base := strings.TrimSuffix(name, ext)
	for i := 2; ; i++ {
		if _, err := os.Lstat(p); os.IsNotExist(err) {
			return p
		}
		p = filepath.Join(dir, fmt.Sprintf("%s (%d)%s", base, i, ext))
	}
}

// humanSize formats a byte count as "812 B", "1.2 kB", "3.4 MB".
func humanSize(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f kB", float64(n)/1000)
	case n < 1000*1000*1000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	default:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	}
}
