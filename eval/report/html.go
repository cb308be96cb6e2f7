package report

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html"
	"html/template"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

//go:embed report.html
var htmlSource string

var htmlTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"pct": func(f float64) string { return fmt.Sprintf("%.0f%%", f*100) },
		"num": fmtNum,
		"ms": func(v any) string {
			switch x := v.(type) {
			case int64:
				return fmtMS(float64(x))
			case float64:
				return fmtMS(x)
			}
			return fmt.Sprint(v)
		},
		"deref": func(f *float64) string {
			if f == nil {
				return ""
			}
			return fmtNum(*f)
		},
		"interval": fmtInterval,
		"deref1":   func(b *bool) bool { return b != nil && *b },
		"derefv": func(f *float64) float64 {
			if f == nil {
				return 0
			}
			return *f
		},
		"dict": func(kv ...any) map[string]any {
			m := map[string]any{}
			for i := 0; i+1 < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1]
			}
			return m
		},
		"ratio": fmtRatio,
		"money": fmtMoney,
		// input is one of an input cost's sums (Run.Input): "no price"
		// when there is none.
		"input": func(c *InputCost, way string) string {
			if c == nil {
				return "no price"
			}
			return fmtMoney(map[string]float64{"none": c.Uncached, "prefix": c.PrefixCached, "billed": c.Billed}[way])
		},
		"inputv": func(c *InputCost, way string) float64 {
			if c == nil {
				return -1
			}
			return map[string]float64{"none": c.Uncached, "prefix": c.PrefixCached, "billed": c.Billed}[way]
		},
	}).Parse(htmlSource))
})

type htmlTask struct {
	Run   Run
	Label string
	Shot  template.URL
	// Result is pass, FAIL or unscored; Cost the run's cost cell.
	Result, Cost string
	CostV        float64
	// Chosen are the steps the judge chose, with their screenshots in the
	// run's trace.
	Chosen []htmlShot
}

type htmlShot struct {
	Iteration, Score int
	Reason           string
	Src              string
}

// HTML renders the self-contained report page. Screenshots named by the
// runs are read from dir and embedded as data URLs; a missing one is left
// out.
func (r *Report) HTML(dir string) ([]byte, error) {
	stats := r.SuiteStats()
	all := stats[len(stats)-1]
	data := struct {
		R                                   *Report
		Stats                               []SuiteStats
		All                                 SuiteStats
		Started, Took, Rate, MedianTime     string
		SuiteChart, LatencyChart, TimeChart template.HTML
		Tasks                               []htmlTask
		Sum                                 *Summary
		Headline                            string
		NoPrice                             bool
	}{
		R: r, Stats: stats, All: all, Sum: r.Summarize(),
		Started:      r.Started.UTC().Format("2006-01-02 15:04:05 UTC"),
		Took:         fmtMS(float64(r.DurationMS)),
		Rate:         fmt.Sprintf("%.0f%%", all.Rate*100),
		MedianTime:   fmtMS(all.MedianMS),
		SuiteChart:   suiteChart(stats[:len(stats)-1]),
		LatencyChart: latencyChart(r.Latencies()),
		TimeChart:    timeChart(r.Runs),
	}
	data.NoPrice = data.Sum.UnpricedRuns == len(r.Runs)
	data.Headline = Headline(data.Sum)
	for _, run := range r.Runs {
		t := htmlTask{Run: run, Label: runLabel(run), Result: "pass"}
		switch {
		case !run.Scored():
			t.Result = "unscored"
		case !run.Success:
			t.Result = "FAIL"
		}
		usd, unknown := run.Spent()
		t.Cost, t.CostV = fmtUSD(usd, unknown && usd == 0), usd
		if run.Judge != nil {
			for _, st := range run.Judge.Steps {
				if st.Chosen {
					src := ""
					if st.Screenshot != "" && run.Trace != "" {
						src = run.Trace + "/" + st.Screenshot
					}
					t.Chosen = append(t.Chosen, htmlShot{Iteration: st.Iteration, Score: st.Score, Reason: st.Reason, Src: src})
				}
			}
		}
		if run.Screenshot != "" {
			if png, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(run.Screenshot))); err == nil {
				t.Shot = template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(png))
			}
		}
		data.Tasks = append(data.Tasks, t)
	}
	var b bytes.Buffer
	if err := htmlTmpl().Execute(&b, data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// The charts are inline SVG built here, so the page needs nothing from
// the network.

const (
	colPass = "#2e9e5b"
	colFail = "#d9534f"
	colP50  = "#4a78c2"
	colP95  = "#a7bfe8"
)

func esc(s string) string { return html.EscapeString(s) }

// suiteChart draws one horizontal bar per suite: the share of runs passed.
func suiteChart(stats []SuiteStats) template.HTML {
	const rowH, labelW, barW = 24, 110, 260
	h := rowH*len(stats) + 10
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart-svg" xmlns="http://www.w3.org/2000/svg" width="100%%" viewBox="0 0 %d %d" role="img" aria-label="success by suite">`, labelW+barW+70, h)
	for i, s := range stats {
		y := i*rowH + 4
		w := int(s.Rate * barW)
		fmt.Fprintf(&b, `<text x="0" y="%d" font-size="12">%s</text>`, y+14, esc(s.Suite))
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="16" fill="%s"><title>%s: %d of %d</title></rect>`, labelW, y, barW, colFail, esc(s.Suite), s.Passed, s.Runs)
		fmt.Fprintf(&b, `<rect class="bar" x="%d" y="%d" width="%d" height="16" fill="%s"></rect>`, labelW, y, w, colPass)
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="12">%d/%d</text>`, labelW+barW+6, y+13, s.Passed, s.Runs)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// latencyChart draws p50 and p95 bars per phase.
func latencyChart(ls []Latency) template.HTML {
	const rowH, labelW, barW = 40, 80, 260
	max := 1.0
	for _, l := range ls {
		if l.P95 > max {
			max = l.P95
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart-svg" xmlns="http://www.w3.org/2000/svg" width="100%%" viewBox="0 0 %d %d" role="img" aria-label="iteration latency">`, labelW+barW+110, rowH*len(ls)+30)
	for i, l := range ls {
		y := i*rowH + 4
		fmt.Fprintf(&b, `<text x="0" y="%d" font-size="12">%s</text>`, y+16, esc(l.Phase))
		w50 := int(l.P50 / max * barW)
		w95 := int(l.P95 / max * barW)
		fmt.Fprintf(&b, `<rect class="bar" x="%d" y="%d" width="%d" height="14" fill="%s"><title>p50 %s</title></rect>`, labelW, y, w50, colP50, fmtMS(l.P50))
		fmt.Fprintf(&b, `<rect class="bar" x="%d" y="%d" width="%d" height="14" fill="%s"><title>p95 %s</title></rect>`, labelW, y+16, w95, colP95, fmtMS(l.P95))
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11">p50 %s</text>`, labelW+w50+4, y+11, fmtMS(l.P50))
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11">p95 %s</text>`, labelW+w95+4, y+27, fmtMS(l.P95))
	}
	fmt.Fprintf(&b, `<text x="0" y="%d" font-size="11" fill="#667085">dark: p50, light: p95, over every iteration</text>`, rowH*len(ls)+20)
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// timeChartTop is how many runs the time chart draws: the slowest. The
// others are in the tasks table, which sorts by time.
const timeChartTop = 30

// timeChart draws one horizontal bar per run, slowest first, green for a
// pass, for the timeChartTop slowest runs. It is drawn at its own pixel
// size, timeRowH a run, and spans the page's width (report.html), so 30
// runs stay as readable as 5, and a report of hundreds stays short.
func timeChart(runs []Run) template.HTML {
	rs := append([]Run(nil), runs...)
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].DurationMS > rs[j].DurationMS })
	more := 0
	if len(rs) > timeChartTop {
		rs, more = rs[:timeChartTop], len(rs)-timeChartTop
	}
	const rowH, labelW, barW = timeRowH, 260, 420
	max := int64(1)
	for _, r := range rs {
		if r.DurationMS > max {
			max = r.DurationMS
		}
	}
	w, h := labelW+barW+80, rowH*len(rs)+6
	if len(rs) == 0 {
		h = 6
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart-svg time-svg" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="time per task">`, w, h, w, h)
	for i, r := range rs {
		y := i*rowH + 3
		col := colPass
		if !r.Success {
			col = colFail
		}
		bw := int(float64(r.DurationMS) / float64(max) * barW)
		if bw < 1 {
			bw = 1
		}
		fmt.Fprintf(&b, `<text x="0" y="%d" font-size="%d">%s<title>%s</title></text>`, y+13, timeFontPx, esc(clip(runLabel(r), 40)), esc(runLabel(r)))
		fmt.Fprintf(&b, `<rect class="bar" x="%d" y="%d" width="%d" height="%d" fill="%s"><title>%s %s</title></rect>`, labelW, y, bw, rowH-6, col, esc(r.ID), fmtMS(float64(r.DurationMS)))
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="%d">%s</text>`, labelW+bw+4, y+13, timeFontPx, fmtMS(float64(r.DurationMS)))
	}
	b.WriteString(`</svg>`)
	if more > 0 {
		fmt.Fprintf(&b, `<div class="muted" id="time-more">the %d slowest of %d runs; the other %d are in the tasks table (click a column to sort)</div>`, len(rs), len(rs)+more, more)
	}
	return template.HTML(b.String())
}

// The time chart's row height and font size, in CSS pixels.
const (
	timeRowH   = 20
	timeFontPx = 12
)
