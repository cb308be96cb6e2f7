package eval

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// Bar is a progress bar for a terminal: one line redrawn in place, with the
// runs passed, failed and in progress, and a line of its own for each
// failure. When the output is not a terminal it writes one line per
// finished run instead, which reads well in CI logs.
type Bar struct {
	w       io.Writer
	tty     bool
	total   int
	done    int
	failed  int
	start   time.Time
	running map[string]time.Time
	now     func() time.Time
}

// NewBar returns a Bar for total runs writing to w; tty says whether w is
// a terminal.
func NewBar(w io.Writer, total int, tty bool) *Bar {
	return &Bar{w: w, tty: tty, total: total, start: time.Now(), running: map[string]time.Time{}, now: time.Now}
}

// Begin implements Progress.
func (b *Bar) Begin(key string) {
	b.running[key] = b.now()
	b.draw()
}

// Done implements Progress.
func (b *Bar) Done(run Run) {
	delete(b.running, run.Key())
	delete(b.running, run.Suite+"/"+run.ID)
	b.done++
	verdict := "pass"
	switch {
	case !run.Scored():
		verdict = "unscored"
	case !run.Success:
		b.failed++
		verdict = "FAIL"
	}
	line := fmt.Sprintf("[%*d/%d] %s %s (%s, %d iterations, %.1fs)", len(fmt.Sprint(b.total)), b.done, b.total,
		verdict, run.Key(), run.Code, run.Iterations, float64(run.DurationMS)/1000)
	if !run.Success && run.Message != "" {
		line += ": " + clipLine(run.Message, 160)
	}
	switch {
	case !b.tty:
		fmt.Fprintln(b.w, line)
	case !run.Success:
		fmt.Fprintf(b.w, "\r\x1b[K%s\n", line)
	}
	b.draw()
}

// Finish ends the bar's line.
func (b *Bar) Finish() {
	if b.tty {
		b.draw()
		fmt.Fprintln(b.w)
	}
}

func (b *Bar) draw() {
	if !b.tty {
		return
	}
	const width = 30
	filled := 0
	if b.total > 0 {
		filled = b.done * width / b.total
	}
	bar := strings.Repeat("=", filled)
	if filled < width {
		bar += ">" + strings.Repeat(" ", width-filled-1)
	}
	var names []string
	for k := range b.running {
		names = append(names, k)
	}
	sort.Strings(names)
	fmt.Fprintf(b.w, "\r\x1b[K[%s] %d/%d  %d failed  %s  %s", bar, b.done, b.total, b.failed,
		b.now().Sub(b.start).Round(time.Second), clipLine(strings.Join(names, " "), 60))
}

func clipLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
