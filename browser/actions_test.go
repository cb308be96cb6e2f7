package browser

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"

	"github.com/webagent/webagent/contract"
)

func TestClickUsesRealEvents(t *testing.T) {
	// The page reacts only to trusted pointer and mouse events, which
	// element.click() from a script would not produce.
	s := open(t, shared, servePage(t, `<title>Trusted</title>
<div id=box role=button style="width:120px;height:40px;background:#ccc">Press me</div>
<p id=log></p>
<script>
const log = [];
const box = document.getElementById('box');
for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'])
  box.addEventListener(type, (e) => { if (e.isTrusted) log.push(type); document.getElementById('log').textContent = log.join(','); });
</script>`))
	out := do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Press me"`)})
	if !strings.HasPrefix(out, `clicked button "Press me"`) {
		t.Errorf("outcome = %q", out)
	}
	got := evalPage[string](t, shared, "document.getElementById('log').textContent")
	if got != "pointerdown,mousedown,pointerup,mouseup,click" {
		t.Errorf("trusted events = %q", got)
	}
}

func TestTypeReplacesAndSubmits(t *testing.T) {
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

func TestSelect(t *testing.T) {
	s := open(t, shared, servePage(t, `<title>Select</title>
<label for=size>Size</label>
<select id=size><option value="">Choose</option><option value=s>Small</option><option value=m>Medium</option><option value=l disabled>Large</option></select>
<p id=log></p>
<script>document.getElementById('size').addEventListener('change', (e) => document.getElementById('log').textContent = 'changed to ' + e.target.value);</script>`))
	ref := refOf(t, s, `combobox "Size"`)
	out := do(t, shared, contract.Action{Name: contract.ActSelect, Ref: ref, Option: "medium"})
	if !strings.HasPrefix(out, `selected "Medium" in combobox "Size"`) {
		t.Errorf("outcome = %q", out)
	}
	if got := evalPage[string](t, shared, "document.getElementById('log').textContent"); got != "changed to m" {
		t.Errorf("change handler: %q", got)
	}
	do(t, shared, contract.Action{Name: contract.ActSelect, Ref: ref, Option: "s"}) // by value
	wantLine(t, snapshot(t, shared), `combobox "Size" value="Small" focused [ref=`+ref+`]`)

	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActSelect, Ref: ref, Option: "Huge"})
	if !isActionError(err) || !strings.Contains(err.Error(), `"Small", "Medium"`) {
		t.Errorf("select of a missing option: %v", err)
	}
	_, err = shared.Do(tctx(t), contract.Action{Name: contract.ActSelect, Ref: ref, Option: "Large"})
	if !isActionError(err) || !strings.Contains(err.Error(), "disabled") {
		t.Errorf("select of a disabled option: %v", err)
	}
}

func TestPressChord(t *testing.T) {
	s := open(t, shared, servePage(t, `<title>Keys</title>
<input aria-label="First"><input aria-label="Second" value="some text">
<p id=log></p>
<script>
document.addEventListener('keydown', (e) => { if (e.isTrusted) document.getElementById('log').textContent += e.key + (e.ctrlKey ? '+ctrl' : '') + ' '; });
</script>`))
	second := refOf(t, s, `textbox "Second"`)
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: second})
	do(t, shared, contract.Action{Name: contract.ActPress, Key: "Control+A"})
	do(t, shared, contract.Action{Name: contract.ActPress, Key: "Backspace"})
	if got := evalPage[string](t, shared, "document.querySelectorAll('input')[1].value"); got != "" {
		t.Errorf("after Control+A, Backspace the field holds %q", got)
	}
	do(t, shared, contract.Action{Name: contract.ActPress, Key: "Shift+Tab"})
	if got := evalPage[string](t, shared, "document.activeElement.getAttribute('aria-label')"); got != "First" {
		t.Errorf("after Shift+Tab the focus is on %q", got)
	}
	if got := evalPage[string](t, shared, "document.getElementById('log').textContent"); !strings.Contains(got, "a+ctrl") {
		t.Errorf("key events seen by the page: %q", got)
	}
	for _, bad := range []string{"Hyperdrive", "Control+", "Foo+A"} {
		_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActPress, Key: bad})
		if !isActionError(err) {
			t.Errorf("press %q: %v, want an ActionError", bad, err)
		}
	}
}

func TestScroll(t *testing.T) {
	open(t, shared, servePage(t, `<title>Long</title><div style="height:5000px">tall</div><p>end</p>`))
	out := do(t, shared, contract.Action{Name: contract.ActScroll, Direction: "down"})
	y := evalPage[float64](t, shared, "scrollY")
	if y < 500 || !strings.Contains(out, fmt.Sprintf("y=%d of", int(y))) {
		t.Errorf("after scrolling down: scrollY %v, outcome %q", y, out)
	}
	out = do(t, shared, contract.Action{Name: contract.ActScroll, Direction: "up"})
	if y := evalPage[float64](t, shared, "scrollY"); y != 0 || !strings.Contains(out, "reached the top") {
		t.Errorf("after scrolling up: scrollY %v, outcome %q", y, out)
	}
	out = do(t, shared, contract.Action{Name: contract.ActScroll, Direction: "up"})
	if !strings.Contains(out, "already at the top") {
		t.Errorf("scrolling up at the top: %q", out)
	}
	if _, err := shared.Do(tctx(t), contract.Action{Name: contract.ActScroll, Direction: "sideways"}); !isActionError(err) {
		t.Errorf("bad direction: %v", err)
	}
}

func TestBack(t *testing.T) {
	base := serve(t, map[string]string{
		"/":     `<title>First</title><a href="/next">Next</a>`,
		"/next": `<title>Second</title><p>second page</p>`,
	})
	s := open(t, shared, base+"/")
	out := do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `link "Next"`)})
	if !strings.Contains(out, "navigated to "+base+"/next (\"Second\")") {
		t.Errorf("click outcome = %q", out)
	}
	out = do(t, shared, contract.Action{Name: contract.ActBack})
	if !strings.Contains(out, "navigated to "+base+"/ (\"First\")") {
		t.Errorf("back outcome = %q", out)
	}
	if s := snapshot(t, shared); s.Title != "First" {
		t.Errorf("after back the title is %q", s.Title)
	}
}

func TestBackWithoutHistory(t *testing.T) {
	b := launch(t, Options{})
	_, err := b.Do(tctx(t), contract.Action{Name: contract.ActBack})
	if !isActionError(err) {
		t.Errorf("back in a new tab: %v, want an ActionError", err)
	}
}

func TestClickNavigatesAndWaitsForLoad(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Start</title><a href="/next">Go on</a>`)
	})
	mux.HandleFunc("/next", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Next</title><img src="/slow.png" alt="slow image"><p>next page</p>`)
	})
	mux.HandleFunc("/slow.png", func(w http.ResponseWriter, r *http.Request) {
		select { // delays the load event
		case <-time.After(300 * time.Millisecond):
		case <-r.Context().Done():
		}
		w.WriteHeader(http.StatusNotFound)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	s := open(t, shared, srv.URL+"/")
	out := do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `link "Go on"`)})
	if !strings.Contains(out, `navigated to `+srv.URL+`/next ("Next")`) {
		t.Errorf("outcome = %q", out)
	}
	if state := evalPage[string](t, shared, "document.readyState"); state != "complete" {
		t.Errorf("click returned before the load event: readyState %q", state)
	}
}

func TestGotoErrors(t *testing.T) {
	// A port nobody listens on.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + l.Addr().String() + "/"
	l.Close()
	_, err = shared.Do(tctx(t), contract.Action{Name: contract.ActGoto, URL: refused})
	if !isActionError(err) || !strings.Contains(err.Error(), "ERR_CONNECTION_REFUSED") {
		t.Errorf("goto a refused port: %v", err)
	}
	_, err = shared.Do(tctx(t), contract.Action{Name: contract.ActGoto, URL: ""})
	if !isActionError(err) {
		t.Errorf("goto without a URL: %v", err)
	}
	// The browser still works.
	s := open(t, shared, servePage(t, `<title>Fine</title><p>fine</p>`))
	wantLine(t, s, "fine")
}

func TestUnknownAndStaleRefs(t *testing.T) {
	s := open(t, shared, servePage(t, `<title>Refs</title>
<button id=gone onclick="this.remove()">Vanish</button><input aria-label="Name">
<button onclick="document.querySelector('input').style.display='none'">Hide name</button>`))
	for _, a := range []contract.Action{
		{Name: contract.ActClick, Ref: "e99999"},
		{Name: contract.ActType, Ref: "e99999", Text: "x"},
		{Name: contract.ActSelect, Ref: "e99999", Option: "x"},
	} {
		_, err := shared.Do(tctx(t), a)
		if !isActionError(err) || !strings.Contains(err.Error(), "ref e99999 is not on this page") {
			t.Errorf("%s with an unknown ref: %v", a.Name, err)
		}
	}
	if _, err := shared.Do(tctx(t), contract.Action{Name: contract.ActClick, Ref: "button"}); !isActionError(err) {
		t.Errorf("click with a malformed ref: %v", err)
	}
	hide := refOf(t, s, `button "Hide name"`)
	name0 := refOf(t, s, `textbox "Name"`)
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: hide})
	for _, a := range []contract.Action{{Name: contract.ActClick, Ref: name0}, {Name: contract.ActType, Ref: name0, Text: "x"}} {
		_, err := shared.Do(tctx(t), a)
		if !isActionError(err) || !strings.Contains(err.Error(), "is not visible") {
			t.Errorf("%s on a hidden element: %v", a.Name, err)
		}
	}
	vanish := refOf(t, s, `button "Vanish"`)
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: vanish})
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActClick, Ref: vanish})
	if !isActionError(err) || !strings.Contains(err.Error(), "ref "+vanish+" is not on the page any more") {
		t.Errorf("click on a removed element: %v", err)
	}
	// After a navigation the old page's refs are unknown, even though the
	// new page has elements too.
	name := name0
	s2 := open(t, shared, servePage(t, `<title>Other</title><input aria-label="Name"><button>Go</button>`))
	if refOf(t, s2, `textbox "Name"`) == name {
		t.Errorf("a new page reuses ref %s", name)
	}
	_, err = shared.Do(tctx(t), contract.Action{Name: contract.ActType, Ref: name, Text: "x"})
	if !isActionError(err) {
		t.Errorf("type with a ref of the previous page: %v", err)
	}
	if _, err := shared.Do(tctx(t), contract.Action{Name: "hoover"}); !isActionError(err) {
		t.Errorf("unknown action: %v", err)
	}
}

func TestDialogsDoNotBlock(t *testing.T) {
	s := open(t, shared, servePage(t, `<title>Dialogs</title>
<button onclick="alert('Saved!')">Save</button>
<button onclick="document.getElementById('r').textContent = confirm('Delete it?') ? 'yes' : 'no'">Delete</button>
<button onclick="document.getElementById('r').textContent = prompt('Your name?', 'Ann')">Name</button>
<p id=r></p>`))
	out := do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Save"`)})
	if !strings.Contains(out, `alert dialog "Saved!" was accepted`) {
		t.Errorf("outcome = %q", out)
	}
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Delete"`)})
	s = snapshot(t, shared)
	if len(s.Notices) != 2 || !strings.Contains(s.Notices[0], `alert dialog "Saved!"`) || !strings.Contains(s.Notices[1], `confirm dialog "Delete it?" was accepted`) {
		t.Errorf("notices = %q", s.Notices)
	}
	wantLine(t, s, "yes")
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Name"`)})
	s = snapshot(t, shared)
	if len(s.Notices) != 1 || !strings.Contains(s.Notices[0], `prompt dialog "Your name?" was answered with "Ann"`) {
		t.Errorf("notices = %q", s.Notices)
	}
	wantLine(t, s, "Ann")
	if s = snapshot(t, shared); len(s.Notices) != 0 {
		t.Errorf("notices were not cleared: %q", s.Notices)
	}
}

func TestGotoDeadline(t *testing.T) {
	hang := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-hang:
		}
	})
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>OK</title><p>still works</p>`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	defer close(hang)

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := shared.Do(ctx, contract.Action{Name: contract.ActGoto, URL: srv.URL + "/hang"})
	took := time.Since(start)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("goto with a 300ms deadline: %v, want DeadlineExceeded", err)
	}
	if took > 600*time.Millisecond {
		t.Errorf("goto returned after %v", took)
	}
	s := open(t, shared, srv.URL+"/ok")
	wantLine(t, s, "still works")
}

func TestSnapshotDeadlineOnHungPage(t *testing.T) {
	s := open(t, shared, servePage(t, `<title>Hang</title><button onclick="setTimeout(() => { for (;;) {} }, 0)">Freeze</button>`))
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Freeze"`)})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := shared.Snapshot(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 600*time.Millisecond {
		t.Errorf("snapshot of a hung page: %v after %v", err, time.Since(start))
	}
	// The script was terminated, so the page answers again.
	s = snapshot(t, shared)
	refOf(t, s, `button "Freeze"`)
}

// New tabs: see TestNewTabsBecomeTabs (tabs_test.go).

// pagesOf lists the page targets of b's browser.
func pagesOf(t *testing.T, b *Browser) []string {
	t.Helper()
	res, err := cdp.Call(tctx(t), b.sess.browser, target.GetTargets, target.GetTargetsParams{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, info := range res.TargetInfos {
		if info.Type == "page" {
			ids = append(ids, string(info.TargetID))
		}
	}
	return ids
}

func TestClickOnCoveredElement(t *testing.T) {
	s := open(t, shared, servePage(t, `<title>Covered</title>
<button id=under onclick="document.title='under clicked'">Under</button>
<div id=overlay style="position:fixed;inset:0;background:rgba(0,0,0,.3)" onclick="document.title='overlay clicked'">Cookie banner</div>`))
	under := refOf(t, s, `button "Under"`)
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActClick, Ref: under})
	if !isActionError(err) || !strings.Contains(err.Error(), `click on button "Under" [ref=`+under+`] not done: it is covered by clickable "Cookie banner"`) {
		t.Errorf("click on a covered button: %v", err)
	}
	if got := evalPage[string](t, shared, "document.title"); got != "Covered" {
		t.Errorf("title = %q: something was clicked", got)
	}
}

func TestBeforeUnloadDoesNotBlock(t *testing.T) {
	away := servePage(t, `<title>Away</title><p>left the draft</p>`)
	s := open(t, shared, servePage(t, `<title>Draft</title>
<textarea aria-label="Draft">unsaved</textarea>
<script>addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = ''; });</script>`))
	// A user gesture arms the beforeunload prompt.
	do(t, shared, contract.Action{Name: contract.ActType, Ref: refOf(t, s, `textbox "Draft"`), Text: "changed"})
	out := do(t, shared, contract.Action{Name: contract.ActGoto, URL: away})
	if !strings.Contains(out, "beforeunload dialog was accepted") {
		t.Errorf("outcome = %q", out)
	}
	s = snapshot(t, shared)
	// The notices: the answered dialog, then what changed (the URL).
	if s.Title != "Away" || len(s.Notices) != 2 || !strings.Contains(s.Notices[0], "beforeunload") {
		t.Errorf("after leaving: title %q, notices %q", s.Title, s.Notices)
	}
	wantLine(t, s, "left the draft")
}

func TestStyledCheckboxLabel(t *testing.T) {
	// The checkbox itself is hidden; its label is what a user clicks.
	s := open(t, shared, servePage(t, `<title>Styled</title>
<style>.switch input{display:none}.switch span{display:inline-block;width:40px;height:20px;background:#ccc}</style>
<label class=switch><input type=checkbox id=dark><span></span> Dark mode</label>
<label><input type=password name=pin aria-label="PIN"></label>`))
	ref := refOf(t, s, `checkbox "Dark mode"`)
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref})
	wantLine(t, snapshot(t, shared), `checkbox "Dark mode" checked [ref=`+ref+`]`)

	out := do(t, shared, contract.Action{Name: contract.ActType, Ref: refOf(t, s, `textbox "PIN"`), Text: "1234"})
	if strings.Contains(out, "1234") || !strings.Contains(out, "typed 4 characters") {
		t.Errorf("typing a password shows it: %q", out)
	}
	if got := evalPage[string](t, shared, "document.querySelector('[name=pin]').value"); got != "1234" {
		t.Errorf("PIN = %q", got)
	}
	if strings.Contains(snapshot(t, shared).Text, "1234") {
		t.Errorf("the snapshot shows the password")
	}
}

// TestActionTable checks that the browser performs every action the
// contract knows, and no other.
func TestActionTable(t *testing.T) {
	var names []string
	for n := range actions {
		names = append(names, n)
	}
	slices.Sort(names)
	if want := contract.ActionNames(); !slices.Equal(names, want) {
		t.Errorf("the browser's actions are %v; the contract's are %v", names, want)
	}
}
