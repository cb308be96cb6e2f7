package browser

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/webagent/webagent/contract"
)

// The options of a select: the snapshot lists a long select's first and
// last options and the chosen ones (snapWalk.js, options); the options
// tool lists all of them, and a select or multi_select that names no
// option lists the closest ones.

// optionsJS lists the options of a native select: labels, groups, and
// whether each is chosen or disabled.
var optionsJS = program("options")

const (
	// optionsListed is how many options a failed select lists whole, as
	// the snapshot does (OPTIONS_MAX in snapWalk.js); of a longer list it
	// gives the optionsClose closest to the label asked for.
	optionsListed = 25
	optionsClose  = 8
	// optionsMax bounds the options the options tool lists.
	optionsMax = 1000
)

// doOptions lists every option of a native select, or every option an
// ARIA listbox or combobox shows, with the chosen and disabled ones
// marked.
func (o *op) doOptions(a contract.Action) (string, error) {
	el, err := o.resolve(a.Ref)
	if err != nil {
		return "", err
	}
	var res struct {
		Native  bool
		Options []struct {
			Label, Group       string
			Selected, Disabled bool
		}
	}
	if err := o.callEl(el, optionsJS, &res); err != nil {
		return "", err
	}
	if !res.Native {
		return o.ariaOptions(el)
	}
	if len(res.Options) == 0 {
		return el.desc + " has no options", nil
	}
	var sb strings.Builder
	var chosen []string
	group := ""
	for i, opt := range res.Options {
		if opt.Selected {
			chosen = append(chosen, opt.Label)
		}
		if i >= optionsMax {
			continue
		}
		if opt.Group != group {
			group = opt.Group
			fmt.Fprintf(&sb, "\ngroup %s:", strconv.Quote(group))
		}
		sb.WriteString("\n" + strconv.Quote(opt.Label))
		if opt.Selected {
			sb.WriteString(" selected")
		}
		if opt.Disabled {
			sb.WriteString(" disabled")
		}
	}
	if n := len(res.Options) - optionsMax; n > 0 {
		fmt.Fprintf(&sb, "\n… %d more options, not listed; select takes any of them by its label", n)
	}
	head := fmt.Sprintf("%s has %s", el.desc, plural(len(res.Options), "option"))
	switch {
	case len(chosen) == 0:
		head += ", none chosen"
	default:
		head += ", chosen " + quoteAll(chosen)
	}
	return head + ":" + sb.String(), nil
}

// ariaOptions lists the options an ARIA listbox or combobox shows.
func (o *op) ariaOptions(el element) (string, error) {
	var kind struct{ Kind string }
	if err := o.callEl(el, ariaKindJS, &kind); err != nil {
		return "", err
	}
	switch kind.Kind {
	case "listbox", "combobox":
	case "option":
		return "", contract.ActionErrorf("%s is an option: give options the ref of its listbox or combobox", el.desc)
	default:
		return "", contract.ActionErrorf("%s is not a select, listbox or combobox, so it has no options to list", el.desc)
	}
	var names []string
	if err := o.callEl(el, ariaOptionsJS, &names, "", true); err != nil {
		return "", err
	}
	if len(names) == 0 {
		return el.desc + " shows no options now; select with the option's label opens it and picks the option, or click it to see them", nil
	}
	more := ""
	if len(names) > optionsMax {
		more = fmt.Sprintf("\n… %d more options, not listed", len(names)-optionsMax)
		names = names[:optionsMax]
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = strconv.Quote(n)
	}
	return fmt.Sprintf("%s shows %s:\n%s%s", el.desc, plural(len(names), "option"), strings.Join(quoted, "\n"), more), nil
}

// optionsHint is the part of a failed select's error that says which
// options there are: all of names when they are few, else the closest to
// the labels asked for, how many there are and how to list them all.
// shown says that names are the options the widget shows (an ARIA one).
func optionsHint(el element, want, names []string, shown bool) string {
	if len(names) <= optionsListed {
		if shown {
			return "the options shown are " + quoteAll(names)
		}
		return "its options are " + quoteAll(names)
	}
	what := "its"
	if shown {
		what = "the"
	}
	hint := fmt.Sprintf("none of %s %d options is close", what, len(names))
	if near := closest(want, names, optionsClose); len(near) > 0 {
		hint = fmt.Sprintf("the closest of %s %d options are %s", what, len(names), quoteAll(near))
	}
	if el.ref != "" {
		hint += "; options ref=" + el.ref + " lists them all"
	}
	return hint
}

// closest returns at most n names near to any of want, nearest first (in
// their order among names when equally near): a name equal to one ignoring
// case and spaces, then one that contains it or is contained in it, then
// by edit distance to the name or to its start, when that is at most a
// third of the length of what was wanted (or 2).
func closest(want, names []string, n int) []string {
	type scored struct {
		i, score int
	}
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	ws := make([]string, len(want))
	for i, w := range want {
		ws[i] = norm(w)
	}
	list := make([]scored, 0, len(names))
	for i, name := range names {
		best := -1
		for _, w := range ws {
			s := nearness(w, norm(name))
			if s > 2+max(2, utf8.RuneCountInString(w)/3) {
				continue // too far to be meant
			}
			if best < 0 || s < best {
				best = s
			}
		}
		if best >= 0 {
			list = append(list, scored{i, best})
		}
	}
	slices.SortStableFunc(list, func(a, b scored) int { return a.score - b.score })
	out := make([]string, 0, n)
	for _, s := range list[:min(n, len(list))] {
		out = append(out, names[s.i])
	}
	return out
}

// nearness scores how near a name is to a wanted label, both lower case:
// 0 equal, 1 one contains the other, else 2 plus the edit distance
// between them, or between the wanted label and the name's start.
func nearness(want, name string) int {
	switch {
	case want == name:
		return 0
	case want != "" && (strings.Contains(name, want) || strings.Contains(want, name)):
		return 1
	}
	d := editDistance(want, name)
	if utf8.RuneCountInString(name) > utf8.RuneCountInString(want) {
		start := string([]rune(name)[:utf8.RuneCountInString(want)])
		d = min(d, editDistance(want, start)+1)
	}
	return 2 + d
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
