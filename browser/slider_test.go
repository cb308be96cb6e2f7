package browser

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

func TestSetSlider(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
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

func TestSetSliderHandleWithoutARIA(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
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
