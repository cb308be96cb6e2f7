package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

func downloadServer(t *testing.T) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Files</title><a href="/file">Report</a>`)
	})
	mux.HandleFunc("/file", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Disposition", `attachment; filename="report.csv"`)
		w.Header().Set("Content-Type", "text/csv")
		fmt.Fprint(w, strings.Repeat("a,b\n", 300))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// A download is saved under its name in the folder and reported in the next
// snapshot; a temporary folder goes with Close, a folder the user named
// stays.
func TestDownloads(t *testing.T) {
	tier.Slow(t)
	base := downloadServer(t)
	dir := filepath.Join(t.TempDir(), "dl")
	b := launch(t, Options{DownloadDir: dir})
	s := open(t, b, base+"/")
	for i, want := range []string{"report.csv", "report (2).csv"} {
		do(t, b, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `link "Report"`)})
		var notes []string
		waitFor(t, "the download notice", 5*time.Second, func() bool {
			notes = append(notes, snapshot(t, b).Notices...)
			return len(notes) > 0
		})
		path := filepath.Join(dir, want)
		// The notice names the file, not the machine's folders.
		wantNote := fmt.Sprintf("downloaded %s (1.2 kB) into the download folder", want)
		if notes[0] != wantNote || strings.Contains(strings.Join(notes, " "), dir) {
			t.Errorf("download %d: notices %q, want %q", i, notes, wantNote)
		}
		if data, err := os.ReadFile(path); err != nil || len(data) != 1200 {
			t.Errorf("download %d: %d bytes, %v", i, len(data), err)
		}
	}

	tb := launch(t, Options{})
	tmp := tb.downloads.folder()
	open(t, tb, base+"/file")
	waitFor(t, "the download", 5*time.Second, func() bool {
		_, err := os.Stat(filepath.Join(tmp, "report.csv"))
		return err == nil
	})
	if err := tb.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("temporary download folder left after Close: %v", err)
	}
}
