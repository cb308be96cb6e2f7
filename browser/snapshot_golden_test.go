package browser

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/webagent/webagent/internal/outline"
)

var update = flag.Bool("update", false, "rewrite the golden snapshots of testdata/snapshot")

// goldenPages are the pages of testdata/snapshot whose snapshots are kept
// as golden files (PAGE.golden), with the budget each is taken with.
var goldenPages = []struct {
	page   string
	tokens int
}{
	{"form.html", DefaultSnapshotTokens},
	{"drawing.html", DefaultSnapshotTokens},
	{"frames.html", DefaultSnapshotTokens},
	{"long.html", 700},
	{"links.html", 400},
}

// TestSnapshotGolden ties the walker's output to the Go side that reads it:
// it takes the snapshot of each golden page, in a browser of its own so
// that its refs start at e1, compares the text with the page's golden file
// (go test -run TestSnapshotGolden -update rewrites them), and checks that
// every line is one of the snapshot's forms, as the readers of the Go side
// take them (grammarErrors).
func TestSnapshotGolden(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "snapshot")
	// The pages are served under 127.0.0.1; frames.html's {{other}} is the
	// same server under localhost, another site.
	var other string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := os.ReadFile(filepath.Join(dir, filepath.Base(r.URL.Path)))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(strings.ReplaceAll(string(body), "{{other}}", other)))
	}))
	t.Cleanup(srv.Close)
	other = strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)

	for _, g := range goldenPages {
		t.Run(g.page, func(t *testing.T) {
			t.Parallel()
			// drawing.html's canvas shows what the canvas log recorded.
			b := newTabWith(t, Options{SnapshotTokens: g.tokens, Observable: g.page == "drawing.html"})
			s := open(t, b, srv.URL+"/"+g.page)
			golden := filepath.Join(dir, strings.TrimSuffix(g.page, ".html")+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(s.Text+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -run TestSnapshotGolden -update writes it)", err)
			}
			if got := s.Text + "\n"; got != string(want) {
				t.Errorf("the snapshot differs from %s (-update rewrites it): %s\nsnapshot:\n%s", golden, firstDiff(string(want), got), s.Text)
			}
			for _, err := range grammarErrors(string(want)) {
				t.Errorf("%s: %v", golden, err)
			}
		})
	}
}

// firstDiff says where two texts first differ, by line.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d is %q, want %q", i+1, gl, wl)
		}
	}
	return "no line differs"
}

// The forms of the lines that say what was left out: regions of the page
// folded to fit the budget (with a handle to read them, [region=rN], in the
// top document), the options of a long select, what a drawing holds past
// its list, and the end of a partial walk.
var (
	foldLines = []*regexp.Regexp{
		fold(`\d+ more [a-z ]+?(?: and \d+ lines of text)?` + where + ` not shown \((?:scroll down|scroll up|scroll) to bring them near, and take a new snapshot\)`),
		fold(`\d+ more (?:list items|rows(?: of (?:table ` + quoted + `|the table))?)` + where + `, text not shown \(` + how + ` to read them\)`),
		fold(`\d+ lines? of text \(\d+ words(?:, \d+ headings?)?\)` + where + ` not shown \(` + how + ` to read\)`),
	}
	moreOptions = regexp.MustCompile(`^… \d+ more options, ` + quoted + ` to ` + quoted + `(?:: select takes any of them; options ref=(e\d+) lists them all)?$`)
	moreLines   = regexp.MustCompile(`^… (?:\d+ more (?:shapes|drawn items) \(screenshot to see them\)|the page is too large to read whole: .*)$`)
)

const (
	quoted = `"(?:[^"\\]|\\.)*"`
	where  = `(?: below| above| here and below)?`
	how    = `(?:scroll down or extract|scroll up or extract|extract)`
)

// fold makes the expression of a fold line of the form f, with its handle.
func fold(f string) *regexp.Regexp {
	return regexp.MustCompile(`^… ` + f + `(?: \[region=(r\d+)\])?$`)
}

// The forms of other lines without an element: an SVG scene's line, a
// table row, a dialog without a name, and the roles of the named lines
// without a ref (headings, structure, what a canvas shows).
var (
	svgLine    = regexp.MustCompile(`^svg box=-?\d+,-?\d+,\d+,\d+$`)
	tableRow   = regexp.MustCompile(`^\| .* \|$`)
	headingEnd = regexp.MustCompile(`^ \[level=[1-6]\]$`)
	wordy      = regexp.MustCompile(`[\p{L}\p{N}]`)
	namedLines = []string{"heading", "option", "img", "dialog", "table", "iframe",
		"text", "rect", "circle", "ellipse", "arc", "line", "polygon", "polyline", "path", "image"}
)

// States and places that follow an element's name: flags, and key=value
// with a JSON string, a word or numbers as the value.
var (
	stateFlags  = []string{"checked", "mixed", "selected", "pressed", "expanded", "collapsed", "disabled", "readonly", "required", "focused", "draggable", "drawn"}
	stateValues = map[string]*regexp.Regexp{
		"value":   regexp.MustCompile(`^".*"$`),
		"min":     regexp.MustCompile(`^".*"$`),
		"max":     regexp.MustCompile(`^".*"$`),
		"step":    regexp.MustCompile(`^".*"$`),
		"colour":  regexp.MustCompile(`^".*"$`),
		"colours": regexp.MustCompile(`^".*"$`),
		"drawn":   regexp.MustCompile(`^unknown$`),
		"type":    regexp.MustCompile(`^[a-z-]+$`),
		"format":  regexp.MustCompile(`^[#a-zA-Z:-]+$`),
		"box":     regexp.MustCompile(`^-?\d+,-?\d+,\d+,\d+$`),
		"center":  regexp.MustCompile(`^-?\d+,-?\d+$`),
		"from":    regexp.MustCompile(`^-?\d+,-?\d+$`),
		"to":      regexp.MustCompile(`^-?\d+,-?\d+$`),
		"r":       regexp.MustCompile(`^\d+(?:,\d+)?$`),
	}
)

// grammarErrors reads every line of a snapshot text as the Go side does
// (outline.Parse, which the harness, the cache and replay use; refsIn, which
// says what changed; the handles of read_region and of the refs) and
// returns an error for each line that is none of the snapshot's forms: an
// element with its ref, a named line without one (a heading, an option, a
// drawn shape), a fold, a table row, or page text, which never passes for
// a ref or a region.
func grammarErrors(text string) []error {
	text = strings.TrimSuffix(text, "\n")
	var errs []error
	lines := outline.Parse(text)
	raw := strings.Split(text, "\n")
	if len(lines) != len(raw) {
		return []error{fmt.Errorf("outline reads %d lines of %d: a blank line", len(lines), len(raw))}
	}
	var refs []string
	for i, l := range lines {
		if err := checkLine(l, raw[i]); err != nil {
			errs = append(errs, fmt.Errorf("line %d %q: %w", i+1, raw[i], err))
		}
		if l.Ref != "" {
			refs = append(refs, l.Ref)
		}
	}
	if got := refsIn(text); !slices.Equal(got, refs) {
		errs = append(errs, fmt.Errorf("refsIn reads refs %v, outline %v", got, refs))
	}
	return errs
}

// checkLine checks one line, l as outline reads it.
func checkLine(l outline.Line, raw string) error {
	if l.Indent%2 != 0 || strings.HasPrefix(raw, "\t") {
		return errors.New("indented by an odd number of spaces")
	}
	s := l.Text
	switch {
	case l.Ref != "":
		if !refPattern.MatchString(l.Ref) {
			return fmt.Errorf("ref %q is no ref the actions take", l.Ref)
		}
		return checkElement(l, strings.TrimSuffix(s, " [ref="+l.Ref+"]"))
	case strings.HasPrefix(s, "… "):
		return checkFold(s)
	case strings.Contains(s, "[ref=") || strings.Contains(s, "[region="):
		return errors.New("a ref or region handle that the Go side does not read")
	case l.Role != "":
		if !slices.Contains(namedLines, l.Role) {
			return fmt.Errorf("outline reads it as an element, role %q, without a ref", l.Role)
		}
		return checkElement(l, s)
	case svgLine.MatchString(s), tableRow.MatchString(s), s == "dialog":
		return nil
	case !wordy.MatchString(s):
		return errors.New("text without a letter or digit")
	}
	return nil // page text
}

// checkFold checks a line that says what was left out.
func checkFold(s string) error {
	for _, re := range foldLines {
		if m := re.FindStringSubmatch(s); m != nil {
			if m[1] != "" && !regionPattern.MatchString(m[1]) {
				return fmt.Errorf("region %q is no handle read_region takes", m[1])
			}
			return nil
		}
	}
	if m := moreOptions.FindStringSubmatch(s); m != nil {
		if m[1] != "" && !refPattern.MatchString(m[1]) {
			return fmt.Errorf("ref %q is no ref the options tool takes", m[1])
		}
		return nil
	}
	if moreLines.MatchString(s) {
		return nil
	}
	return errors.New("a line of what was left out in no known form")
}

// checkElement checks the line of an element, l, whose part before the ref
// (the whole line, without one) is head: `ROLE "NAME"` and its states.
func checkElement(l outline.Line, head string) error {
	role, rest, _ := strings.Cut(strings.TrimPrefix(head, "- "), " ")
	if role != l.Role {
		return fmt.Errorf("outline reads role %q", l.Role)
	}
	end := closingQuoteAt(rest)
	if !strings.HasPrefix(rest, `"`) || end < 0 {
		return errors.New("no quoted name")
	}
	var name string
	if err := json.Unmarshal([]byte(rest[:end+1]), &name); err != nil || name != l.Name {
		return fmt.Errorf("the name %s does not read as JSON (outline reads %q)", rest[:end+1], l.Name)
	}
	rest = rest[end+1:]
	switch {
	case role == "heading" && l.Ref == "":
		if !headingEnd.MatchString(rest) {
			return fmt.Errorf("a heading's level %q", rest)
		}
		return nil
	case role == "iframe" && rest == frameNotShown:
		return nil
	}
	// A picture the snapshot cannot read says how to see it.
	for _, hint := range pictureHints {
		rest = strings.TrimSuffix(rest, hint)
	}
	return checkStates(rest)
}

// pictureHints end the line of a picture the snapshot cannot read (a
// drawn canvas, an image without text), before its ref.
var pictureHints = []string{" (screenshot to see it)", " (screenshot to see it; --observable lists what is drawn)"}

// frameNotShown follows the line of a frame of another site that was not
// walked (spliceFrames).
const frameNotShown = " (another site's frame; its content is not shown)"

// checkStates checks the states and places after an element's name, each
// after a space.
func checkStates(rest string) error {
	for rest != "" {
		if rest[0] != ' ' {
			return fmt.Errorf("states %q not separated by a space", rest)
		}
		rest = rest[1:]
		tok, _, _ := strings.Cut(rest, " ")
		k, v, ok := strings.Cut(tok, "=")
		switch {
		case !ok:
			if !slices.Contains(stateFlags, tok) {
				return fmt.Errorf("state %q", tok)
			}
		case strings.HasPrefix(v, `"`):
			// A JSON string, which may hold spaces.
			e := closingQuoteAt(rest[len(k)+1:])
			if e < 0 || !json.Valid([]byte(rest[len(k)+1:len(k)+2+e])) {
				return fmt.Errorf("state %s: its value is no JSON string", k)
			}
			tok = rest[:len(k)+2+e]
			fallthrough
		default:
			if re := stateValues[k]; re == nil || !re.MatchString(tok[len(k)+1:]) {
				return fmt.Errorf("state %q", tok)
			}
		}
		rest = rest[len(tok):]
	}
	return nil
}

// closingQuoteAt returns the index of the quote that closes the JSON
// string s starts with, or -1.
func closingQuoteAt(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// TestSnapshotGrammarCatches checks that grammarErrors finds lines the Go
// side would misread.
func TestSnapshotGrammarCatches(t *testing.T) {
	for _, bad := range []string{
		`button "OK" shiny [ref=e1]`,     // an unknown state
		`button "OK [ref=e1]`,            // a name left open
		`textbox "A" value="x [ref=e2]`,  // a value left open
		` button "OK" [ref=e1]`,          // an odd indent
		`Some text [ref=e1] in the page`, // a ref in page text
		`… 3 lines of text [region=r1]`,  // a fold in no known form
		`… 3 lines of text (9 words) not shown (extract to read) [region=x1]`,
		`heading "Title"`,  // a heading without its level
		`Say "hi" to them`, // text read as an element
		`,`,                // a separator alone
	} {
		if errs := grammarErrors(bad); len(errs) == 0 {
			t.Errorf("no error for %q", bad)
		}
	}
	good := "heading \"T\" [level=2]\n- item\n  button \"A \\\"b\\\"\" value=\"x y\" checked box=1,2,3,4 [ref=e7]\n" +
		"  … 2 more rows of the table below, text not shown (scroll down or extract to read them) [region=r2]\n| a | b |\n" +
		"canvas \"c\" drawn colours=\"white #ffffff, red #ff0000\" box=1,2,3,4 (screenshot to see it; --observable lists what is drawn) [ref=e8]\n" +
		"canvas \"d\" drawn=unknown box=1,2,3,4 (screenshot to see it) [ref=e9]\nimg \"\" box=1,2,65,111 (screenshot to see it)"
	for _, err := range grammarErrors(good) {
		t.Error(err)
	}
}
