package browser

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

func TestExtract(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	base := serve(t, map[string]string{"/": `<title>Article</title>
<header><nav><a href="/home">Home</a> <a href="/about">About</a></nav></header>
<main>
<h1>Tides of the <em>North Sea</em></h1>
<p>The North Sea has <a href="/tides">semi-diurnal tides</a> and a <strong>large</strong> range.</p>
<p hidden>hidden paragraph</p>
<h2>Ports</h2>
<ul><li>Hamburg<ul><li>Elbe river</li></ul></li><li>Rotterdam</li></ul>
<ol><li>First</li><li>Second</li></ol>
<table><thead><tr><th>Port</th><th>Range (m)</th></tr></thead><tbody><tr><td>Hamburg</td><td>3.6</td></tr><tr><td>Dover</td><td>5.9</td></tr></tbody></table>
<blockquote>Time and tide wait for no man.</blockquote>
<pre>tide = f(moon)</pre>
<button>Subscribe</button><input value="not content">
</main>
<footer>Copyright footer</footer>`})
	open(t, shared, base+"/")
	out := do(t, shared, contract.Action{Name: contract.ActExtract})
	for _, want := range []string{
		`Main content of ` + base + `/ ("Article") as Markdown:`,
		"# Tides of the North Sea",
		"The North Sea has [semi-diurnal tides](" + base + "/tides) and a **large** range.",
		"## Ports",
		"- Hamburg\n  - Elbe river\n- Rotterdam",
		"1. First\n2. Second",
		"| Port | Range (m) |\n| --- | --- |\n| Hamburg | 3.6 |\n| Dover | 5.9 |",
		"> Time and tide wait for no man.",
		"```\ntide = f(moon)\n```",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("extract has no %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"Home", "Copyright", "hidden paragraph", "Subscribe", "not content", "cut here"} {
		if strings.Contains(out, bad) {
			t.Errorf("extract has %q:\n%s", bad, out)
		}
	}
}

func TestExtractIsBounded(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	var b strings.Builder
	b.WriteString(`<title>Long</title><article>`)
	for i := range 300 {
		b.WriteString("<p>Paragraph " + strings.Repeat("word ", 10) + "number " + string(rune('A'+i%26)) + ".</p>")
	}
	b.WriteString(`<p>The very last paragraph.</p></article><aside>Related links</aside>`)
	open(t, shared, servePage(t, b.String()))
	var parts []string
	for range 10 {
		out := do(t, shared, contract.Action{Name: contract.ActExtract})
		parts = append(parts, out)
		if len(out) > extractMaxChars+300 {
			t.Errorf("part %d has %d characters", len(parts), len(out))
		}
		if !strings.Contains(out, "[cut here") {
			break
		}
		if !strings.Contains(out, "Call extract again to read the next part.") {
			t.Errorf("a cut part does not say how to read on:\n%s", out[len(out)-200:])
		}
	}
	if len(parts) < 2 || len(parts) > 5 {
		t.Fatalf("%d parts", len(parts))
	}
	last := parts[len(parts)-1]
	if !strings.Contains(last, "The very last paragraph.") || !strings.Contains(last, "end of the content") {
		t.Errorf("the last part:\n%s", last)
	}
	if strings.Contains(strings.Join(parts, ""), "Related links") {
		t.Errorf("the aside was kept")
	}
	// After the last part, extract starts again.
	if out := do(t, shared, contract.Action{Name: contract.ActExtract}); !strings.Contains(out, ", part 1: characters 1-") {
		t.Errorf("after the last part: %.200s", out)
	}
}
