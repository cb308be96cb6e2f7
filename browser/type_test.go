package browser

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

func TestTypeReplacesAndSubmits(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	base := serve(t, map[string]string{
		"/": `<title>Search</title>
<form action="/results"><input name=q aria-label="Query" value="old text"><button>Go</button></form>`,
		"/results": `<title>Results</title><p>results page</p>`,
	})
	s := open(t, shared, base+"/")
	out := do(t, shared, contract.Action{Name: contract.ActType, Ref: refOf(t, s, `textbox "Query"`), Text: "new words", Submit: true})
	if !strings.Contains(out, `typed "new words" into textbox "Query"`) || !strings.Contains(out, "navigated to "+base+"/results?q=new+words") {
		t.Errorf("outcome = %q", out)
	}
	s = snapshot(t, shared)
	if s.URL != base+"/results?q=new+words" || s.Title != "Results" {
		t.Errorf("after submit: URL %q, title %q", s.URL, s.Title)
	}
}

func TestTypeAutocomplete(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Autocomplete</title>
<input id=city aria-label="City" autocomplete=off>
<ul id=suggest></ul>
<script>
const cities = ['Paris', 'Parma', 'Porto', 'Berlin'];
document.getElementById('city').addEventListener('keyup', (e) => {
  const v = e.target.value.toLowerCase();
  document.getElementById('suggest').innerHTML = v ? cities.filter((c) => c.toLowerCase().startsWith(v))
    .map((c) => '<li><a href="#" onclick="document.getElementById(\'city\').value=\'' + c + '\'; return false">' + c + '</a></li>').join('') : '';
});
</script>`))
	do(t, shared, contract.Action{Name: contract.ActType, Ref: refOf(t, s, `textbox "City"`), Text: "Par"})
	s = snapshot(t, shared)
	refOf(t, s, `link "Paris"`)
	refOf(t, s, `link "Parma"`)
	if strings.Contains(s.Text, "Porto") || strings.Contains(s.Text, "Berlin") {
		t.Errorf("suggestions not filtered by the typed text:\n%s", s.Text)
	}
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `link "Parma"`)})
	wantLine(t, snapshot(t, shared), `textbox "City" value="Parma" [ref=`+refOf(t, s, `textbox "City"`)+`]`)
}

func TestTypeContentEditableAndNonASCII(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Editor</title>
<div contenteditable=true aria-label="Notes" style="min-height:40px">old note</div>
<textarea aria-label="Comment">x</textarea>
<input type=checkbox aria-label="Agree">`))
	do(t, shared, contract.Action{Name: contract.ActType, Ref: refOf(t, s, `textbox "Notes"`), Text: "café ☕ 東京"})
	if got := evalPage[string](t, shared, "document.querySelector('[contenteditable]').innerText.trim()"); got != "café ☕ 東京" {
		t.Errorf("contenteditable = %q", got)
	}
	do(t, shared, contract.Action{Name: contract.ActType, Ref: refOf(t, s, `textbox "Comment"`), Text: "line 1\nline 2"})
	if got := evalPage[string](t, shared, "document.querySelector('textarea').value"); got != "line 1\nline 2" {
		t.Errorf("textarea = %q", got)
	}
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActType, Ref: refOf(t, s, `checkbox "Agree"`), Text: "x"})
	if !isActionError(err) || !strings.Contains(err.Error(), "cannot be typed into") {
		t.Errorf("typing into a checkbox: %v", err)
	}
}

func TestTypeReportsTheTruth(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, spinnerPage))
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActType, Ref: refOf(t, s, `spinbutton "Quantity"`), Text: "-7"})
	if !isActionError(err) || !strings.Contains(err.Error(), "rejected the keys") || !strings.Contains(err.Error(), `previous value "3" was put back`) {
		t.Errorf("typing into a spinner that rejects keys: %v", err)
	}
	if got := evalPage[string](t, shared, "document.getElementById('n').value"); got != "3" {
		t.Errorf("the spinner holds %q, want its old value 3", got)
	}
	out := do(t, shared, contract.Action{Name: contract.ActType, Ref: refOf(t, s, `textbox "Zip"`), Text: "1234567"})
	if !strings.Contains(out, `it now holds "12345"`) {
		t.Errorf("typing past maxlength: outcome %q", out)
	}
}

func TestTypeKeyByKeyOnlyWherePageListensForKeys(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	page := strings.Replace(inputLogPage, "%d", "40", 1)
	t.Run("no key listener", func(t *testing.T) {
		s := open(t, shared, servePage(t, page))
		out := do(t, shared, contract.Action{Name: contract.ActType, Ref: refOf(t, s, `textbox "Field"`), Text: "héllo wörld"})
		if out != `typed "héllo wörld" into textbox "Field" [ref=`+refOf(t, s, `textbox "Field"`)+`]` {
			t.Errorf("outcome = %q", out)
		}
		// One edit replaces the old value: the page's input handlers see
		// the new text, as they would after typing.
		got := strings.Join(evalPage[[]string](t, shared, "window.log"), "|")
		if got != "beforeinput:insertText:héllo wörld|input:héllo wörld" {
			t.Errorf("events = %s", got)
		}
		if v := evalPage[string](t, shared, "f.value"); v != "héllo wörld" {
			t.Errorf("value = %q", v)
		}
	})
	t.Run("key listener", func(t *testing.T) {
		s := open(t, shared, servePage(t, page+`<script>window.keys = 0; document.addEventListener('keydown', () => keys++)</script>`))
		do(t, shared, contract.Action{Name: contract.ActType, Ref: refOf(t, s, `textbox "Field"`), Text: "abc"})
		// Select all and Backspace, then a key per character.
		if n := evalPage[int](t, shared, "window.keys"); n != 2+1+3 {
			t.Errorf("keydown events = %d, want 6", n)
		}
		if v := evalPage[string](t, shared, "f.value"); v != "abc" {
			t.Errorf("value = %q", v)
		}
	})
	t.Run("field that cuts the text", func(t *testing.T) {
		s := open(t, shared, servePage(t, strings.Replace(inputLogPage, "%d", "4", 1)))
		out := do(t, shared, contract.Action{Name: contract.ActType, Ref: refOf(t, s, `textbox "Field"`), Text: "abcdefgh"})
		if !strings.Contains(out, `it now holds "abcd"`) {
			t.Errorf("outcome = %q", out)
		}
	})
}

// A spinner that takes only arrow keys: typing into it must not claim
// success.
const spinnerPage = `<title>Spinner</title>
<input id=n role=spinbutton aria-label="Quantity" value="3">
<input id=z aria-label="Zip" maxlength=5 value="">
<script>
document.getElementById('n').addEventListener('keydown', (e) => {
  const n = document.getElementById('n');
  if (e.key === 'ArrowUp') n.value = +n.value + 1;
  else if (e.key === 'ArrowDown') n.value = +n.value - 1;
  else if (e.key !== 'Tab') { e.preventDefault(); return; }
  e.preventDefault();
});
</script>`

// inputLogPage is a text field that logs its input events; extra is added
// to the page.
const inputLogPage = `<title>Fill</title>
<input id=f aria-label="Field" value="old value" maxlength=%d>
<script>
window.log = [];
const f = document.getElementById('f');
f.addEventListener('beforeinput', (e) => log.push('beforeinput:' + e.inputType + ':' + (e.data || '')));
f.addEventListener('input', (e) => log.push('input:' + f.value));
f.addEventListener('change', () => log.push('change'));
</script>`

// A terminal takes the keys itself: its field keeps only the last key,
// the command shows on the terminal's line, and Enter runs it. The outcome
// says so, reads the field before Enter, and reports what Enter did apart.
func TestTypeIntoTerminalReadsBackBeforeEnter(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Terminal</title>
<div id=term style="background:#000;color:#4f4;width:300px;height:120px;font:12px monospace">
 <div id=out></div>
 <div><span>user$</span> <span id=cmd></span><span>&block;</span></div>
</div>
<input id=target aria-label="Terminal input" style="width:40px;opacity:0.01">
<script>
const cmd = document.getElementById('cmd'), target = document.getElementById('target');
window.ran = [];
target.addEventListener('keydown', (e) => {
  if (e.key === 'Enter') {
    window.ran.push(cmd.textContent);
    const line = document.createElement('div');
    line.textContent = cmd.textContent === 'ls' ? 'notes.txt photo.png' : 'Command not found.';
    document.getElementById('out').append(line);
    cmd.textContent = '';
  } else if (e.key.length === 1) {
    cmd.append(e.key);
  }
  target.value = '';
});
</script>`))
	out := do(t, shared, contract.Action{Name: contract.ActType, Ref: refOf(t, s, `textbox "Terminal input"`), Text: "ls", Submit: true})
	if got := evalPage[string](t, shared, "window.ran.join('|')"); got != "ls" {
		t.Fatalf("the terminal ran %q, want ls (outcome %q)", got, out)
	}
	for _, want := range []string{`the page took the keys itself: the field holds "s", and "ls" now shows in the page ("user$ ls█")`, "; then pressed Enter; the page changed"} {
		if !strings.Contains(out, want) {
			t.Errorf("outcome %q lacks %q", out, want)
		}
	}
	if strings.Contains(out, "rejected") {
		t.Errorf("outcome %q says the page rejected the keys it took", out)
	}
}

// TestTypeSecretNotEchoed: a secret (the loop names its origins) typed
// into a field that is not a password field is told by its length, never
// its text, also when the page changes what it holds.
func TestTypeSecretNotEchoed(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	b := newTab(t)
	url := servePage(t, `<label>Token <input id="t"></label><label>Upper <input id="u" oninput="this.value = this.value.toUpperCase()"></label>`)
	s := open(t, b, url)
	origin := strings.TrimSuffix(url, "/")
	for _, c := range []struct{ field, want string }{{`textbox "Token"`, "typed 13 characters into"}, {`textbox "Upper"`, "it now holds 13 characters"}} {
		out, err := b.Do(tctx(t), contract.Action{Name: contract.ActType, Ref: refOf(t, s, c.field), Text: "s3cret-token!",
			Origins: []string{origin}, SecretNames: []string{"token"}})
		if err != nil {
			t.Fatalf("%s: %v", c.field, err)
		}
		if strings.Contains(out.Text, "s3cret") || strings.Contains(strings.ToLower(out.Text), "s3cret") || !strings.Contains(out.Text, c.want) {
			t.Errorf("%s: %q, want %q and never the text", c.field, out.Text, c.want)
		}
	}
}
