package browser

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

func TestSelectText(t *testing.T) {
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
