package browser

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

func TestSelectText(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, highlightPage))
	ref := refOf(t, s, `clickable "Story"`)
	out := do(t, shared, contract.Action{Name: contract.ActSelectText, Ref: ref, Text: "brown fox jumps"})
	if !strings.HasPrefix(out, `selected "brown fox jumps"`) || strings.Contains(out, "directly") {
		t.Errorf("outcome = %q", out)
	}
	if got := evalPage[string](t, shared, "got.textContent"); got != "highlighted:brown fox jumps" {
		t.Errorf("the page's handler got %q", got)
	}
	do(t, shared, contract.Action{Name: contract.ActPress, Key: "Control+C"})
	if got := evalPage[string](t, shared, "document.getElementById('copied').textContent"); got != "copied:brown fox jumps" {
		t.Errorf("the page's copy handler got %q", got)
	}
	start, end := 4, 9
	do(t, shared, contract.Action{Name: contract.ActSelectText, Ref: ref, Start: &start, End: &end})
	if got := evalPage[string](t, shared, "got.textContent"); got != "highlighted:quick" {
		t.Errorf("by offsets, the page's handler got %q", got)
	}
	// A text that is not there selects nothing.
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActSelectText, Ref: ref, Text: "red fox"})
	if !isActionError(err) || !strings.Contains(err.Error(), `does not contain the text "red fox"`) {
		t.Errorf("a missing text: %v", err)
	}
	bad := 90
	_, err = shared.Do(tctx(t), contract.Action{Name: contract.ActSelectText, Ref: ref, Start: &start, End: &bad})
	if !isActionError(err) || !strings.Contains(err.Error(), "not a range") {
		t.Errorf("offsets out of the text: %v", err)
	}
	if got := evalPage[string](t, shared, "got.textContent + '|' + getSelection().toString()"); got != "highlighted:quick|quick" {
		t.Errorf("refused selections changed the page: %q", got)
	}
}

// A paragraph whose mouseup handler records the selected text, as a
// highlight-to-annotate page does, and a copy handler.
const highlightPage = `<title>Highlight</title>
<p id=p aria-label="Story" onclick="">The  quick brown
  fox <b>jumps</b> over the lazy dog.</p>
<p id=got></p><p id=copied></p>
<script>
const got = document.getElementById('got');
document.getElementById('p').addEventListener('mouseup', () => { got.textContent = 'highlighted:' + getSelection().toString().replace(/\s+/g, ' '); });
document.addEventListener('copy', (e) => { document.getElementById('copied').textContent = 'copied:' + getSelection().toString().replace(/\s+/g, ' '); });
</script>`

// Text without a ref: the phrase is found in the page's paragraphs and
// selected with the mouse when it occurs once; a phrase that is not there,
// or is there twice, selects nothing and says why (and where).
func TestSelectTextByTextAlone(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	open(t, shared, servePage(t, paragraphsPage))
	out := do(t, shared, contract.Action{Name: contract.ActSelectText, Text: "a  steady\n hand"})
	if !strings.HasPrefix(out, `selected "a steady hand" in `) || !strings.Contains(out, "[ref=e") || strings.Contains(out, "directly") {
		t.Errorf("outcome = %q", out)
	}
	if got := evalPage[string](t, shared, "getSelection().toString().replace(/\\s+/g, ' ') + '|' + seen.join(',')"); got != "a steady hand|mouseup:a steady hand" {
		t.Errorf("the page sees %q, want the phrase selected and its mouseup", got)
	}
	// The ref the outcome names is the paragraph's: select_text with it
	// selects within that paragraph.
	ref := regexp.MustCompile(`\[ref=(e\d+)\]`).FindStringSubmatch(out)[1]
	start, end := 0, 6
	do(t, shared, contract.Action{Name: contract.ActSelectText, Ref: ref, Start: &start, End: &end})
	if got := evalPage[string](t, shared, "getSelection().toString()"); got != "It tak" {
		t.Errorf("by offsets in the named paragraph: %q", got)
	}

	before := evalPage[string](t, shared, "getSelection().toString() + '|' + seen.length")
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActSelectText, Text: "the lighthouse"})
	if !isActionError(err) || !strings.Contains(err.Error(), `text "the lighthouse" appears 3 times on the page; nothing was selected: give the ref of the element that holds the one you mean`) {
		t.Fatalf("an ambiguous text: %v", err)
	}
	// Each place is named by its paragraph's ref and offsets, with the
	// words around it; the second paragraph holds two.
	places := regexp.MustCompile(`\[ref=(e\d+)\], characters (\d+) to (\d+) \("([^"]*)"\)`).FindAllStringSubmatch(err.Error(), -1)
	if len(places) != 3 || places[1][1] != places[2][1] || places[0][1] == places[1][1] ||
		!strings.Contains(places[0][4], "keeper of the lighthouse climbed") || !strings.Contains(places[2][4], "beyond the lighthouse") {
		t.Fatalf("places %q in %v", places, err)
	}
	// Offsets from the error pick the one meant.
	s, _ := strconv.Atoi(places[2][2])
	e, _ := strconv.Atoi(places[2][3])
	_, err = shared.Do(tctx(t), contract.Action{Name: contract.ActSelectText, Ref: places[2][1], Text: "the lighthouse"})
	if !isActionError(err) || !strings.Contains(err.Error(), `the text "the lighthouse" appears 2 times in `) || !strings.Contains(err.Error(), fmt.Sprintf("characters %d to %d", s, e)) {
		t.Fatalf("ambiguous inside the paragraph: %v", err)
	}
	if got := evalPage[string](t, shared, "getSelection().toString() + '|' + seen.length"); got != before {
		t.Errorf("refused selections changed the page: %q, was %q", got, before)
	}
	do(t, shared, contract.Action{Name: contract.ActSelectText, Ref: places[2][1], Start: &s, End: &e})
	if got := evalPage[string](t, shared, "getSelection().anchorNode.parentElement.id + ':' + getSelection().toString()"); got != "p2:the lighthouse" {
		t.Errorf("the place from the error selected %q", got)
	}

	before = evalPage[string](t, shared, "getSelection().toString() + '|' + seen.length")
	for _, missing := range []string{"the harbour", "note"} { // "note" is in a field, not the page's text
		_, err = shared.Do(tctx(t), contract.Action{Name: contract.ActSelectText, Text: missing})
		if !isActionError(err) || !strings.Contains(err.Error(), fmt.Sprintf("no text %q on the page; nothing was selected", missing)) {
			t.Errorf("a missing text: %v", err)
		}
	}
	if got := evalPage[string](t, shared, "getSelection().toString() + '|' + seen.length"); got != before {
		t.Errorf("a missing text changed the page: %q, was %q", got, before)
	}
}

// Paragraphs, one phrase three times (twice in one paragraph, once split
// by an inline element), a field, and a page that records mouseup
// selections.
const paragraphsPage = `<title>Story</title>
<p id=p1>It takes a steady
   hand to row. The keeper of the <em>lighthouse</em> climbed the stairs.</p>
<p id=p2>At night the lighthouse shone; the boats beyond the lighthouse turned home.</p>
<textarea>a note</textarea>
<script>
const seen = [];
document.addEventListener('mouseup', () => seen.push('mouseup:' + getSelection().toString().replace(/\s+/g, ' ')));
</script>`
