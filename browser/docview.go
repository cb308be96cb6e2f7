package browser

import (
	"fmt"
	"strconv"
	"strings"
)

// The outline of a document a tab holds instead of a page (a PDF): a line
// naming it, then its text page by page, each page folded into a region
// when the whole does not fit the snapshot's budget.

// foldCost is the budget set aside for the line of a folded page.
const foldCost = 40

// docOutline is the snapshot text of the PDF named name, within budget
// (estimated tokens), and the text of each folded page by its region
// handle (r1 for page 1).
func docOutline(name string, t pdfText, budget int) (string, map[string]string) {
	var sb strings.Builder
	q := strconv.Quote(name)
	if t.total == 0 && t.problem != "" {
		fmt.Fprintf(&sb, "document %s: a PDF that cannot be read: %s", q, t.problem)
		return sb.String(), nil
	}
	fmt.Fprintf(&sb, "document %s: PDF of %s", q, plural(t.total, "page"))
	if t.problem != "" {
		fmt.Fprintf(&sb, " (%s)", t.problem)
	}
	whole := tokenEstimate(sb.String())
	for _, p := range t.pages {
		whole += tokenEstimate(p) + 4
	}
	// reserve[i] is what the pages after page i+1 cost at least: a
	// folded line each, or less for a page cheaper whole.
	reserve := make([]int, len(t.pages)+1)
	for i := len(t.pages) - 1; i >= 0; i-- {
		reserve[i] = reserve[i+1]
		if p := t.pages[i]; p != "" {
			reserve[i] += min(foldCost, tokenEstimate(p)+4)
		}
	}
	regions := map[string]string{}
	used := tokenEstimate(sb.String())
	for i, p := range t.pages {
		n := i + 1
		fmt.Fprintf(&sb, "\npage %d of %d", n, t.total)
		cost := tokenEstimate(p) + 4
		rest := reserve[n]
		switch {
		case p == "":
			sb.WriteString("\n  (no text on this page: it may be a scanned image)")
		case whole <= budget || used+cost+rest <= budget || cost <= foldCost:
			used += cost
			for l := range strings.Lines(p) {
				sb.WriteString("\n  " + strings.TrimSuffix(l, "\n"))
			}
		default:
			id := "r" + strconv.Itoa(n)
			regions[id] = p
			used += foldCost
			fmt.Fprintf(&sb, "\n  … %s (%s) of page %d not shown, starting %s (read_region %s reads them) [region=%s]",
				plural(strings.Count(p, "\n")+1, "line"), plural(len(strings.Fields(p)), "word"), n, strconv.Quote(preview(p)), id, id)
		}
	}
	return sb.String(), regions
}

// tokenEstimate estimates the tokens of s on the high side: about three
// bytes a token.
func tokenEstimate(s string) int {
	return len(s)/3 + 1
}

// preview is the first words of a page's text.
func preview(p string) string {
	w := strings.Fields(p)
	if len(w) <= 8 {
		return strings.Join(w, " ")
	}
	return strings.Join(w[:8], " ") + "…"
}
