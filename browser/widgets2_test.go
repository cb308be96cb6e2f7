package browser

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
)

// An ARIA slider moved by arrow keys, Home and End, or by dragging its
// thumb along the track; and a native range input.
const sliderPage = `<title>Slider</title>
<div id=track style="position:relative;width:400px;height:20px;margin:30px;background:#ccc">
  <div id=thumb role=slider aria-label="Volume" tabindex=0 aria-valuemin=0 aria-valuemax=100 aria-valuenow=10
    style="position:absolute;top:0;width:20px;height:20px;background:#06c"></div>
</div>
<input type=range aria-label="Zoom" min=0 max=20 value=5>
<p id=log></p>
<script>
const thumb = document.getElementById('thumb'), track = document.getElementById('track');
let v = 10, drag = false;
const set = (n) => { v = Math.max(0, Math.min(100, Math.round(n))); thumb.setAttribute('aria-valuenow', v); thumb.style.left = (v * 3.8) + 'px'; };
set(10);
thumb.addEventListener('keydown', (e) => {
  const k = {ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1}[e.key];
  if (k) set(v + k); else if (e.key === 'Home') set(0); else if (e.key === 'End') set(100); else return;
  e.preventDefault();
});
thumb.addEventListener('mousedown', (e) => { drag = true; e.preventDefault(); });
document.addEventListener('mousemove', (e) => { if (drag) set((e.clientX - track.getBoundingClientRect().left - 10) / 3.8); });
document.addEventListener('mouseup', () => { drag = false; });
document.querySelector('input').addEventListener('change', (e) => { document.getElementById('log').textContent = 'zoom ' + e.target.value; });
</script>`

func TestSetSlider(t *testing.T) {
	s := open(t, shared, servePage(t, sliderPage))
	vol := refOf(t, s, `slider "Volume"`)
	out := do(t, shared, contract.Action{Name: contract.ActSetSlider, Ref: vol, Value: "37"})
	if !strings.HasPrefix(out, `set slider "Volume"`) || !strings.Contains(out, "to 37") {
		t.Errorf("outcome = %q", out)
	}
	if got := evalPage[int](t, shared, "v"); got != 37 {
		t.Errorf("slider value = %d, want 37", got)
	}
	do(t, shared, contract.Action{Name: contract.ActSetSlider, Ref: vol, Value: "100"})
	if got := evalPage[int](t, shared, "v"); got != 100 {
		t.Errorf("slider value = %d, want 100", got)
	}
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActSetSlider, Ref: vol, Value: "150"})
	if !isActionError(err) || !strings.Contains(err.Error(), "from 0 to 100") {
		t.Errorf("a value out of range: %v", err)
	}
	if got := evalPage[int](t, shared, "v"); got != 100 {
		t.Errorf("a refused value moved the slider to %d", got)
	}
	zoom := refOf(t, s, `slider "Zoom"`)
	do(t, shared, contract.Action{Name: contract.ActSetSlider, Ref: zoom, Value: "7"})
	if got := evalPage[string](t, shared, "document.getElementById('log').textContent"); got != "zoom 7" {
		t.Errorf("range input change handler saw %q", got)
	}
}

// A vertical slider without ARIA, moved with mouse events only (no keys):
// the snapshot shows its handle at a percentage of its track, counted from
// the bottom, and set_slider takes that percentage.
const verticalSliderPage = `<title>Level</title>
<div id=track class=level-slider style="position:relative;width:12px;height:200px;margin:30px;background:#ccc">
  <div id=knob class=level-knob style="position:absolute;left:-4px;width:20px;height:20px;background:#06c"></div>
</div>
<p id=out></p>
<script>
const knob = document.getElementById('knob'), track = document.getElementById('track');
let drag = false;
const place = (f) => { f = Math.max(0, Math.min(1, f)); knob.style.top = ((1 - f) * 200 - 10) + 'px'; document.getElementById('out').textContent = Math.round(f * 100); };
place(0.2);
knob.addEventListener('mousedown', (e) => { drag = true; e.preventDefault(); });
document.addEventListener('mousemove', (e) => { if (drag) place((track.getBoundingClientRect().bottom - e.clientY) / 200); });
document.addEventListener('mouseup', () => { drag = false; });
</script>`

func TestSetSliderHandleWithoutARIA(t *testing.T) {
	s := open(t, shared, servePage(t, verticalSliderPage))
	line := lineOf(t, s, `slider "slider handle"`)
	if !strings.Contains(line, `value="20% of its track"`) {
		t.Fatalf("the handle's line is %s", line)
	}
	h := refOf(t, s, `slider "slider handle"`)
	out := do(t, shared, contract.Action{Name: contract.ActSetSlider, Ref: h, Value: "75%"})
	if !strings.Contains(out, "to 75% of its track") {
		t.Errorf("outcome = %q", out)
	}
	if got := evalPage[string](t, shared, "document.getElementById('out').textContent"); got != "75" {
		t.Errorf("the page's level is %s after set_slider 75%%, want 75", got)
	}
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActSetSlider, Ref: h, Value: "-5"})
	if !isActionError(err) || !strings.Contains(err.Error(), "from 0 to 100") {
		t.Errorf("a percentage below 0: %v", err)
	}
	if got := evalPage[string](t, shared, "document.getElementById('out').textContent"); got != "75" {
		t.Errorf("a refused value moved the handle to %s", got)
	}
}

const multiPage = `<title>Toppings</title>
<label for=t>Toppings</label>
<select id=t multiple size=6>
  <option value=ch selected>Cheese</option><option value=mu>Mushrooms</option><option value=ol selected>Olives</option>
  <option value=on>Onions</option><option value=pe>Peppers</option><option value=an disabled>Anchovies</option>
</select>
<p id=log></p>
<script>document.getElementById('t').addEventListener('change', (e) => { document.getElementById('log').textContent = Array.from(e.target.selectedOptions).map((o) => o.value).join(','); });</script>`

func TestMultiSelectKeepsOthers(t *testing.T) {
	s := open(t, shared, servePage(t, multiPage))
	ref := refOf(t, s, `listbox "Toppings"`)
	chosen := func() string {
		return evalPage[string](t, shared, "Array.from(document.getElementById('t').selectedOptions).map((o) => o.value).join(',')")
	}
	out := do(t, shared, contract.Action{Name: contract.ActMultiSelect, Ref: ref, Options: []string{"Peppers"}})
	if !strings.Contains(out, `chosen now "Cheese", "Olives", "Peppers"`) {
		t.Errorf("outcome = %q", out)
	}
	if got := chosen(); got != "ch,ol,pe" {
		t.Errorf("chosen = %q, want ch,ol,pe", got)
	}
	out = do(t, shared, contract.Action{Name: contract.ActMultiSelect, Ref: ref, Options: []string{"on"}, Remove: []string{"cheese"}})
	if got := chosen(); got != "ol,on,pe" || evalPage[string](t, shared, "document.getElementById('log').textContent") != "ol,on,pe" {
		t.Errorf("chosen = %q after adding Onions and removing Cheese (%s)", got, out)
	}
	// select on a multiple select adds to the choice.
	out = do(t, shared, contract.Action{Name: contract.ActSelect, Ref: ref, Option: "Mushrooms"})
	if got := chosen(); got != "mu,ol,on,pe" || !strings.Contains(out, `chosen now "Mushrooms", "Olives", "Onions", "Peppers"`) {
		t.Errorf("select on a multiple select: chosen %q, outcome %q", got, out)
	}
	// An unknown option changes nothing, also the ones that exist.
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActMultiSelect, Ref: ref, Options: []string{"Cheese", "Pineapple"}, Remove: []string{"Olives"}})
	if !isActionError(err) || !strings.Contains(err.Error(), `no option "Pineapple"`) || !strings.Contains(err.Error(), "nothing was changed") {
		t.Errorf("an unknown option: %v", err)
	}
	_, err = shared.Do(tctx(t), contract.Action{Name: contract.ActMultiSelect, Ref: ref, Options: []string{"Anchovies"}})
	if !isActionError(err) || !strings.Contains(err.Error(), "disabled") {
		t.Errorf("a disabled option: %v", err)
	}
	if got := chosen(); got != "mu,ol,on,pe" {
		t.Errorf("refused choices changed the select: %q", got)
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

func TestTypeReportsTheTruth(t *testing.T) {
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

// A menu that fills in after a delay; its entry is quoted on the page
// already, as a task's instruction would.
const waitPage = `<title>Wait</title>
<p>Task: wait for the menu entry "Settings" and open it.</p>
<button onclick="setTimeout(() => { const li = document.createElement('li'); li.textContent = 'Settings'; document.getElementById('menu').append(li); }, 400)">Load menu</button>
<ul id=menu aria-label="Menu" onclick=""><li>Home</li></ul>
<div id=spin role=status>Loading…</div>
<button id=go disabled>Continue</button>
<script>setTimeout(() => { document.getElementById('spin').remove(); document.getElementById('go').disabled = false; }, 600);</script>`

func TestWaitForChange(t *testing.T) {
	s := open(t, shared, servePage(t, waitPage))
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Load menu"`)})
	t0 := time.Now()
	out := do(t, shared, contract.Action{Name: contract.ActWaitFor, Text: "Settings"})
	if !strings.Contains(out, `the text "Settings" appeared on the page`) {
		t.Errorf("outcome = %q", out)
	}
	if n := evalPage[int](t, shared, "document.querySelectorAll('#menu li').length"); n != 2 {
		t.Errorf("wait_for returned before the entry appeared (after %v): %d items", time.Since(t0), n)
	}
	// Already there and nothing new: the wait runs to its deadline.
	ctx, cancel := contextWithTimeout(t, 700*time.Millisecond)
	defer cancel()
	if _, err := shared.Do(ctx, contract.Action{Name: contract.ActWaitFor, Text: "Home"}); err == nil {
		t.Errorf("wait_for a text already shown returned at once")
	}
	s = snapshot(t, shared)
	out = do(t, shared, contract.Action{Name: contract.ActWaitFor, Ref: refOf(t, s, `button "Continue"`), State: contract.WaitEnabled})
	if !strings.Contains(out, "is enabled") || evalPage[bool](t, shared, "document.getElementById('go').disabled") {
		t.Errorf("wait for enabled: %q", out)
	}
	if got := evalPage[bool](t, shared, "!document.getElementById('spin')"); !got {
		t.Errorf("the spinner is still there")
	}
	out = do(t, shared, contract.Action{Name: contract.ActWaitFor, Text: "Loading…", State: contract.WaitDisappear})
	if !strings.Contains(out, "is no longer on the page") {
		t.Errorf("wait for a text to go: %q", out)
	}
	t1 := time.Now()
	out = do(t, shared, contract.Action{Name: contract.ActWait, MS: 300})
	if d := time.Since(t1); d < 300*time.Millisecond || !strings.HasPrefix(out, "waited 300 ms") {
		t.Errorf("wait 300 ms took %v: %q", d, out)
	}
}

// contextWithTimeout is a context for one call that must end by d.
func contextWithTimeout(t *testing.T, d time.Duration) (context.Context, context.CancelFunc) {
	t.Helper()
	return context.WithTimeout(context.Background(), d)
}

// An ARIA listbox with several choices: a plain click chooses only that
// option, a click with Control toggles it, as desktop lists do.
const ariaMultiPage = `<title>Colours</title>
<div role=listbox aria-label="Colours" aria-multiselectable=true tabindex=0>
  <div role=option aria-selected=true>Red</div><div role=option aria-selected=false>Green</div>
  <div role=option aria-selected=false>Blue</div><div role=option aria-selected=true>Black</div>
</div>
<script>
for (const o of document.querySelectorAll('[role=option]')) o.addEventListener('click', (e) => {
  if (!e.ctrlKey) for (const p of document.querySelectorAll('[role=option]')) p.setAttribute('aria-selected', 'false');
  o.setAttribute('aria-selected', String(!(e.ctrlKey && o.getAttribute('aria-selected') === 'true')));
});
</script>`

func TestMultiSelectARIAListbox(t *testing.T) {
	s := open(t, shared, servePage(t, ariaMultiPage))
	ref := refOf(t, s, `listbox "Colours"`)
	chosen := func() string {
		return evalPage[string](t, shared, "Array.from(document.querySelectorAll('[aria-selected=true]')).map((o) => o.textContent).join(',')")
	}
	out := do(t, shared, contract.Action{Name: contract.ActMultiSelect, Ref: ref, Options: []string{"Blue", "Green"}, Remove: []string{"Black"}})
	if got := chosen(); got != "Red,Green,Blue" || !strings.Contains(out, `chosen now "Red", "Green", "Blue"`) {
		t.Errorf("chosen %q; outcome %q", got, out)
	}
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActMultiSelect, Ref: ref, Options: []string{"Purple"}, Remove: []string{"Red"}})
	if !isActionError(err) || !strings.Contains(err.Error(), `no option "Purple"`) {
		t.Errorf("an unknown option: %v", err)
	}
	if got := chosen(); got != "Red,Green,Blue" {
		t.Errorf("a refused change changed the listbox: %q", got)
	}
}

// The text a click of the same reply made appear, which the model's latest
// snapshot did not show, counts as appearing; the text the snapshot showed
// must show once more.
func TestWaitForCountsFromTheSnapshotSeen(t *testing.T) {
	s := open(t, shared, servePage(t, `<title>Seen</title><p>Wait for Done.</p>
<button onclick="const p = document.createElement('p'); p.textContent = 'Done'; document.body.append(p)">Finish</button>`))
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Finish"`)})
	// The page shows "Done" twice now, the snapshot once: it appeared.
	out := do(t, shared, contract.Action{Name: contract.ActWaitFor, Text: "Done", Seen: s.Text})
	if !strings.Contains(out, `the text "Done" appeared`) {
		t.Errorf("outcome = %q", out)
	}
	ctx, cancel := contextWithTimeout(t, 600*time.Millisecond)
	defer cancel()
	if _, err := shared.Do(ctx, contract.Action{Name: contract.ActWaitFor, Text: "Done", Seen: snapshot(t, shared).Text}); err == nil {
		t.Errorf("wait_for a text the latest snapshot shows returned at once")
	}
}
