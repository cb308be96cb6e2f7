// Package snapbench measures the page snapshot on a folder of saved pages:
// its size in tokens, the time it takes, and whether every visible
// interactive element got a ref.
//
// Tokens are counted with o200k_base by a real tokenizer in a binary built
// with the bench tag (go build -tags bench), whose tables weigh about 7 MB;
// without it they are estimated at 4 bytes each (Tokenizer says which).
//
// The pages are served on 127.0.0.1 and every request to another host is
// refused, so that the timings measure the snapshot and not failed fetches.
// Each page is measured once, after its load event.
package snapbench

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/contract"
)

// Header is the CSV header the benchmark prints.
const Header = "page,tokens,ms,refs,interactive,covered"

// Config configures Run.
type Config struct {
	Dir            string // the folder of .html pages
	ChromePath     string // see browser.Options
	SnapshotTokens int    // the snapshot budget; browser.DefaultSnapshotTokens if 0
	// PageTimeout bounds the work on one page (load, snapshot, count); 30 s
	// if 0.
	PageTimeout time.Duration
	// Repeat takes each page's snapshot this many times (at least once)
	// and reports the fastest, to filter out the noise of a busy machine.
	// The tokens, refs and coverage are those of the first.
	Repeat int
	// Dump, if set, is a folder where each page's snapshot is written
	// (PAGE.txt), to read what the model would see.
	Dump   string
	Logger *slog.Logger
}

// Row is the measure of one page.
type Row struct {
	Page        string
	Tokens      int
	MS          float64
	Refs        int
	Interactive int
	Covered     int
	Missed      []string // a few interactive elements without a ref
}

// Summary sums up the rows.
type Summary struct {
	Pages                         int
	TokensMedian, TokensP90       float64
	TokensTotal                   int
	MSMedian, MSP90, MSP99, MSMax float64
	RefsMedian                    float64
	InteractiveMedian             float64
	Interactive, Covered          int
	PagesFullyCovered             int
}

// Run measures every .html page of cfg.Dir and writes the CSV (Header, a
// row a page, then a summary line starting with "#") to w. Pages that fail
// are reported on a row with -1 values and make Run return an error after
// the others were measured.
func Run(ctx context.Context, cfg Config, w io.Writer) (rows []Row, sum Summary, err error) {
	pages, err := filepath.Glob(filepath.Join(cfg.Dir, "*.html"))
	if err != nil {
		return nil, Summary{}, err
	}
	if len(pages) == 0 {
		return nil, Summary{}, fmt.Errorf("snapbench: no .html files in %s", cfg.Dir)
	}
	sort.Strings(pages)
	count, err := counter()
	if err != nil {
		return nil, Summary{}, err
	}

	base, stop, err := serve(cfg.Dir)
	if err != nil {
		return nil, Summary{}, err
	}
	defer stop()
	b, err := launch(ctx, cfg)
	if err != nil {
		return nil, Summary{}, err
	}
	defer func() {
		// Close stops Chromium and removes its profile; a failure there is
		// the run's too.
		if cerr := b.Close(); cerr != nil {
			err = errors.Join(err, cerr)
		}
	}()

	timeout := cmp.Or(cfg.PageTimeout, 30*time.Second)
	// Warm up: the first snapshot of a browser compiles the walker.
	warm := base + "_webagent-warm-up"
	if _, err := measure(ctx, b, warm, timeout, 1); err != nil {
		return nil, Summary{}, fmt.Errorf("snapbench: warming up: %w", err)
	}

	fmt.Fprintln(w, Header)
	var errs []error
	for _, p := range pages {
		if ctx.Err() != nil {
			return rows, Summary{}, ctx.Err()
		}
		name := filepath.Base(p)
		m, err := measure(ctx, b, base+url.PathEscape(name), timeout, cfg.Repeat)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			fmt.Fprintf(w, "%s,-1,-1,-1,-1,-1\n", csvField(name))
			continue
		}
		row := Row{Page: name, Tokens: count(m.snap.Text), MS: m.ms, Refs: countRefs(m.snap.Text),
			Interactive: m.cov.Interactive, Covered: m.cov.Covered, Missed: m.cov.Missed}
		rows = append(rows, row)
		for _, m := range row.Missed {
			cfg.Logger.Warn("visible interactive element without a ref", "page", name, "element", m)
		}
		if cfg.Dump != "" {
			if err := os.WriteFile(filepath.Join(cfg.Dump, strings.TrimSuffix(name, ".html")+".txt"), []byte(m.snap.Text), 0o644); err != nil {
				return rows, Summary{}, err
			}
		}
		fmt.Fprintf(w, "%s,%d,%.1f,%d,%d,%d\n", csvField(name), row.Tokens, row.MS, row.Refs, row.Interactive, row.Covered)
	}
	sum = Summarize(rows)
	fmt.Fprintln(w, sum.Line())
	return rows, sum, errors.Join(errs...)
}

// serve serves dir, and a warm-up page, on loopback; stop ends it.
func serve(dir string) (base string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir(dir)))
	// The warm-up page (goto opens only http and https pages).
	mux.HandleFunc("/_webagent-warm-up", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, "<title>warm-up</title><p>warm-up</p><button>ok</button>")
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String() + "/", func() { _ = srv.Close() }, nil
}

// launch starts the benchmark's browser, which reaches loopback only.
func launch(ctx context.Context, cfg Config) (*browser.Browser, error) {
	lctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	return browser.Launch(lctx, browser.Options{
		ChromePath:       cfg.ChromePath,
		SnapshotTokens:   cfg.SnapshotTokens,
		BlockNonLoopback: true,
		Logger:           cfg.Logger,
	})
}

type measured struct {
	snap contract.Snapshot
	ms   float64
	cov  browser.Coverage
}

// loadJS waits for the load event (bounded: a page whose load never comes
// is measured as it is).
const loadJS = `new Promise((resolve) => {
  if (document.readyState === 'complete') { resolve(true); return; }
  addEventListener('load', () => resolve(true));
  setTimeout(() => resolve(false), 10000);
})`

func measure(ctx context.Context, b *browser.Browser, u string, timeout time.Duration, repeat int) (measured, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if _, err := b.Do(ctx, contract.Action{Name: contract.ActGoto, URL: u}); err != nil {
		return measured{}, err
	}
	if _, err := b.Eval(ctx, loadJS); err != nil {
		return measured{}, err
	}
	t0 := time.Now()
	s, err := b.Snapshot(ctx)
	ms := float64(time.Since(t0).Microseconds()) / 1000
	if err != nil {
		return measured{}, err
	}
	cov, err := b.CheckCoverage(ctx)
	if err != nil {
		return measured{}, err
	}
	for i := 1; i < repeat; i++ {
		t0 := time.Now()
		if _, err := b.Snapshot(ctx); err != nil {
			return measured{}, err
		}
		ms = min(ms, float64(time.Since(t0).Microseconds())/1000)
	}
	return measured{snap: s, ms: ms, cov: cov}, nil
}

// CountTokens counts the tokens of s (see Tokenizer).
func CountTokens(s string) (int, error) {
	count, err := counter()
	if err != nil {
		return 0, err
	}
	return count(s), nil
}

// countRefs counts the lines that carry a ref.
func countRefs(text string) int {
	n := 0
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\n")
		if i := strings.LastIndex(line, "[ref="); i >= 0 && strings.HasSuffix(line, "]") {
			n++
		}
	}
	return n
}

func csvField(s string) string {
	if strings.ContainsAny(s, ",\"\n") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// Summarize computes the medians, percentiles and totals of rows.
func Summarize(rows []Row) Summary {
	s := Summary{Pages: len(rows)}
	var tok, ms, refs, inter []float64
	for _, r := range rows {
		tok = append(tok, float64(r.Tokens))
		ms = append(ms, r.MS)
		refs = append(refs, float64(r.Refs))
		inter = append(inter, float64(r.Interactive))
		s.TokensTotal += r.Tokens
		s.Interactive += r.Interactive
		s.Covered += r.Covered
		if r.Covered == r.Interactive {
			s.PagesFullyCovered++
		}
	}
	s.TokensMedian, s.TokensP90 = Percentile(tok, 50), Percentile(tok, 90)
	s.MSMedian, s.MSP90, s.MSP99 = Percentile(ms, 50), Percentile(ms, 90), Percentile(ms, 99)
	if len(ms) > 0 {
		s.MSMax = slices.Max(ms)
	}
	s.RefsMedian, s.InteractiveMedian = Percentile(refs, 50), Percentile(inter, 50)
	return s
}

// Line is the summary line of the CSV output.
func (s Summary) Line() string {
	cov := 100.0
	if s.Interactive > 0 {
		cov = 100 * float64(s.Covered) / float64(s.Interactive)
	}
	return fmt.Sprintf("# %d pages: tokens median %.0f p90 %.0f total %d; ms median %.1f p90 %.1f p99 %.1f max %.1f; refs median %.0f; interactive median %.0f total %d; covered %d (%.1f%%), %d/%d pages fully covered",
		s.Pages, s.TokensMedian, s.TokensP90, s.TokensTotal, s.MSMedian, s.MSP90, s.MSP99, s.MSMax,
		s.RefsMedian, s.InteractiveMedian, s.Interactive, s.Covered, cov, s.PagesFullyCovered, s.Pages)
}

// Percentile returns the p-th percentile of xs by linear interpolation
// between closest ranks; 0 for none.
func Percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	r := p / 100 * float64(len(s)-1)
	lo := int(math.Floor(r))
	hi := min(lo+1, len(s)-1)
	return s[lo] + (s[hi]-s[lo])*(r-float64(lo))
}
