package snapbench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/internal/outline"
)

// WalkHeader is the CSV header of Walk.
const WalkHeader = "page,actions,in_page,full_tokens,delta_tokens,sent_tokens,rebuilt"

// WalkRow is one page of Walk: of the scripted actions it could take,
// how many left the document in place, and over those the tokens of the
// whole snapshot after each, of the delta, and of what the agent sends
// (the delta when it is at most half the whole snapshot, else the whole),
// and how many deltas, applied to the snapshot before as their text reads
// (outline.Apply), rebuilt the snapshot after exactly.
type WalkRow struct {
	Page              string
	Actions, InPage   int
	Full, Delta, Sent int
	Rebuilt           int
	Skipped           []string // actions the page had no element for
	Mismatches        []string // the deltas that did not rebuild the snapshot, and why
}

// WalkSummary sums the rows.
type WalkSummary struct {
	Pages, Actions, InPage int
	Full, Delta, Sent      int
	Rebuilt                int
	Mismatches             []string // PAGE: what a delta that did not rebuild its snapshot got wrong
}

// Line is the summary line of the CSV.
func (s WalkSummary) Line() string {
	ratio := func(a int) float64 {
		if s.Full == 0 {
			return 0
		}
		return float64(a) / float64(s.Full)
	}
	return fmt.Sprintf("# %d pages, %d actions, %d in the same document: whole snapshots %d tokens, deltas %d (%.2fx), sent %d (%.2fx); %d of %d deltas rebuilt the snapshot [%s]",
		s.Pages, s.Actions, s.InPage, s.Full, s.Delta, ratio(s.Delta), s.Sent, ratio(s.Sent), s.Rebuilt, s.InPage, Tokenizer)
}

// walkSteps are the in-page actions of the walk, each on the first
// element of the snapshot that fits: type into a text field, open a menu
// (a collapsed button or combobox), check a box, select an option, expand
// a collapsed element other than the menu.
var walkSteps = []string{"type", "menu", "check", "select", "expand"}

// Walk opens every page of cfg.Dir, takes its snapshot, then plays the
// walk's actions one after the other, each followed by a snapshot, and
// writes what a delta saves against the whole snapshot (WalkHeader, a row
// a page, a summary line starting with "#"). A page that fails is
// reported on a row with -1 values.
func Walk(ctx context.Context, cfg Config, w io.Writer) (sum WalkSummary, err error) {
	pages, err := filepath.Glob(filepath.Join(cfg.Dir, "*.html"))
	if err != nil || len(pages) == 0 {
		return sum, errors.Join(err, fmt.Errorf("snapbench: no .html files in %s", cfg.Dir))
	}
	sort.Strings(pages)
	base, stop, err := serve(cfg.Dir)
	if err != nil {
		return sum, err
	}
	defer stop()
	targets := make([]walkTarget, len(pages))
	for i, p := range pages {
		name := filepath.Base(p)
		targets[i] = walkTarget{name: name, url: base + url.PathEscape(name)}
	}
	return walk(ctx, cfg, targets, w)
}

// walkTarget is a page of the walk: its name on its row, and its URL.
type walkTarget struct{ name, url string }

// walk plays the walk on each page of targets (see Walk).
func walk(ctx context.Context, cfg Config, targets []walkTarget, w io.Writer) (sum WalkSummary, err error) {
	count, err := counter()
	if err != nil {
		return sum, err
	}
	b, err := launch(ctx, cfg)
	if err != nil {
		return sum, err
	}
	defer func() { err = errors.Join(err, b.Close()) }()
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	timeout := max(cfg.PageTimeout, 60*time.Second)
	fmt.Fprintln(w, WalkHeader)
	for _, t := range targets {
		if ctx.Err() != nil {
			return sum, ctx.Err()
		}
		row, err := walkPage(ctx, b, t.url, timeout, count)
		row.Page = t.name
		if err != nil {
			log.Warn("walk", "page", t.name, "err", err)
			fmt.Fprintf(w, "%s,-1,-1,-1,-1,-1,-1\n", csvField(t.name))
			continue
		}
		for _, m := range row.Mismatches {
			log.Warn("a delta did not rebuild the snapshot", "page", t.name, "why", m)
			sum.Mismatches = append(sum.Mismatches, t.name+": "+m)
		}
		sum.Pages++
		sum.Actions += row.Actions
		sum.InPage += row.InPage
		sum.Full += row.Full
		sum.Delta += row.Delta
		sum.Sent += row.Sent
		sum.Rebuilt += row.Rebuilt
		fmt.Fprintf(w, "%s,%d,%d,%d,%d,%d,%d\n", csvField(t.name), row.Actions, row.InPage, row.Full, row.Delta, row.Sent, row.Rebuilt)
	}
	fmt.Fprintln(w, sum.Line())
	return sum, nil
}

// walkPage plays the walk on one page.
func walkPage(ctx context.Context, b *browser.Browser, u string, timeout time.Duration, count func(string) int) (WalkRow, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var row WalkRow
	if _, err := b.Do(ctx, contract.Action{Name: contract.ActGoto, URL: u}); err != nil {
		return row, err
	}
	prev, err := b.Snapshot(ctx)
	if err != nil {
		return row, err
	}
	used := map[string]bool{}
	for _, step := range walkSteps {
		a, ok := pick(step, outline.Parse(prev.Text), used)
		if !ok {
			row.Skipped = append(row.Skipped, step)
			continue
		}
		used[a.Ref] = true
		actx, acancel := context.WithTimeout(ctx, 10*time.Second)
		_, err := b.Do(actx, a)
		acancel()
		if err != nil && ctx.Err() != nil {
			return row, err
		}
		row.Actions++
		cur, err := b.Snapshot(ctx)
		if err != nil {
			return row, err
		}
		if cur.Document == prev.Document && cur.URL == prev.URL {
			row.InPage++
			full := count(cur.Text)
			text := outline.Diff(prev.Text, cur.Text).Text()
			delta := count(text)
			if why := rebuild(prev.Text, text, cur.Text); why != "" {
				row.Mismatches = append(row.Mismatches, step+": "+why)
			} else {
				row.Rebuilt++
			}
			row.Full += full
			row.Delta += delta
			if 2*delta <= full {
				row.Sent += delta
			} else {
				row.Sent += full
			}
		}
		prev = cur
	}
	return row, nil
}

// rebuild applies delta to prev as a model reads it and says how the
// page it gives differs from cur; "" when it is cur, line for line.
func rebuild(prev, delta, cur string) string {
	got, err := outline.Apply(prev, delta)
	if err != nil {
		return err.Error()
	}
	g, c := strings.Split(got, "\n"), nonBlank(cur)
	for i := range max(len(g), len(c)) {
		switch {
		case i >= len(g):
			return fmt.Sprintf("the rebuilt page ends before line %d, %q", i+1, c[i])
		case i >= len(c):
			return fmt.Sprintf("the rebuilt page has line %d, %q, past the end", i+1, g[i])
		case g[i] != c[i]:
			return fmt.Sprintf("line %d is %q, rebuilt %q", i+1, c[i], g[i])
		}
	}
	return ""
}

// nonBlank returns the lines of s that are not blank.
func nonBlank(s string) []string {
	var out []string
	for l := range strings.Lines(s) {
		if l = strings.TrimRight(l, "\r\n"); strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// pick finds the action of a walk step on a page, on an element not used
// yet: the element the step is for, else a stand-in (any button for a
// menu or a disclosure, a radio for a box).
func pick(step string, lines []outline.Line, used map[string]bool) (contract.Action, bool) {
	collapsed := func(l outline.Line) bool { return strings.Contains(l.Text, " collapsed") }
	button := func(l outline.Line) bool { return l.Role == "button" }
	var tries []func(l outline.Line) bool
	switch step {
	case "type":
		tries = append(tries, func(l outline.Line) bool { return l.Role == "textbox" || l.Role == "searchbox" })
	case "menu":
		tries = append(tries, func(l outline.Line) bool { return (button(l) || l.Role == "combobox") && collapsed(l) }, button)
	case "check":
		tries = append(tries, func(l outline.Line) bool { return l.Role == "checkbox" && !strings.Contains(l.Text, " checked") },
			func(l outline.Line) bool { return l.Role == "radio" && !strings.Contains(l.Text, " checked") })
	case "expand":
		tries = append(tries, collapsed, func(l outline.Line) bool { return l.Role == "tab" }, button)
	}
	for _, fits := range tries {
		for _, l := range lines {
			if l.Ref != "" && !used[l.Ref] && fits(l) {
				return actionFor(step, l), true
			}
		}
	}
	if step == "select" {
		for i, l := range lines {
			if l.Ref != "" && !used[l.Ref] && l.Role == "combobox" && i+2 < len(lines) && lines[i+2].Role == "option" {
				return contract.Action{Name: contract.ActSelect, Ref: l.Ref, Option: lines[i+2].Name}, true
			}
		}
	}
	return contract.Action{}, false
}

// actionFor is the action of a step on the element of line l.
func actionFor(step string, l outline.Line) contract.Action {
	switch step {
	case "type":
		return contract.Action{Name: contract.ActType, Ref: l.Ref, Text: "walk"}
	case "check":
		return contract.Action{Name: contract.ActCheck, Ref: l.Ref}
	}
	return contract.Action{Name: contract.ActClick, Ref: l.Ref}
}
