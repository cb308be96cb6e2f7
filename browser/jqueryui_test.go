package browser

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

// jqueryUIPage is a page of jQuery UI's mouse-driven widgets, with the
// library itself (browser/testdata/jqueryui: jQuery 3.7.1 and jQuery UI
// 1.14.1 as published on npm, with their licences). Each widget writes what
// it did into #log.
const jqueryUIPage = `<!doctype html><title>jQuery UI</title>
<style>
body { font: 14px sans-serif; }
#sortable { list-style: none; padding: 0; width: 200px; }
#sortable li { margin: 2px; padding: 6px; background: #eee; border: 1px solid #ccc; }
#drag { width: 80px; height: 50px; background: #cde; border: 1px solid #89a; }
#drop { width: 160px; height: 90px; background: #edc; border: 1px solid #a98; margin-top: 10px; }
#resizable { width: 150px; height: 80px; background: #efe; border: 1px solid #9a9; position: relative; }
#slider { width: 300px; margin: 20px 10px; }
.ui-resizable-handle { position: absolute; }
.ui-resizable-se { width: 12px; height: 12px; right: 1px; bottom: 1px; cursor: se-resize; background: #333; }
.ui-resizable-e { width: 7px; right: -5px; top: 0; height: 100%; cursor: e-resize; }
.ui-resizable-s { height: 7px; bottom: -5px; left: 0; width: 100%; cursor: s-resize; }
.ui-slider { position: relative; height: 10px; background: #ddd; }
.ui-slider-handle { position: absolute; width: 16px; height: 16px; top: -4px; margin-left: -8px; background: #357; }
</style>
<h1>Widgets</h1>
<ul id=sortable><li>Apple</li><li>Banana</li><li>Cherry</li><li>Date</li></ul>
<div id=drag>Parcel</div>
<div id=drop>Mailbox</div>
<div id=resizable>Panel</div>
<div id=slider></div>
<p>Amount: <span id=amount>10</span></p>
<p><label for=spin>Guests</label> <input id=spin name=spin value=2></p>
<p id=log></p>
<script src="/jquery.min.js"></script>
<script src="/jquery-ui.min.js"></script>
<script>
const log = (s) => { $('#log').text(($('#log').text() + ' ' + s).trim()); };
$('#sortable').sortable({update: () => log('order:' + $('#sortable li').map((i, l) => $(l).text()).get().join(','))});
$('#drag').draggable();
$('#drop').droppable({drop: () => { $('#drop').text('Delivered'); log('dropped'); }});
$('#resizable').resizable({stop: (e, ui) => log('size:' + Math.round(ui.size.width) + 'x' + Math.round(ui.size.height))});
$('#slider').slider({min: 0, max: 100, value: 10, slide: (e, ui) => $('#amount').text(ui.value), change: (e, ui) => { $('#amount').text(ui.value); log('slider:' + ui.value); }});
$('#spin').spinner({min: 0, max: 9});
</script>`

// serveJQueryUI serves jqueryUIPage at / and the library's files.
func serveJQueryUI(t *testing.T) string {
	t.Helper()
	mux := http.NewServeMux()
	lib := http.FileServerFS(os.DirFS("testdata/jqueryui"))
	mux.Handle("/jquery.min.js", lib)
	mux.Handle("/jquery-ui.min.js", lib)
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(jqueryUIPage))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// The widgets of a real drag library, driven as a model would from the
// snapshot: sortable items and a draggable are drag sources with refs, the
// droppable a drop target, the slider's handle a slider (set in percent of
// its track) and its track a target of its own; a refused drag or value
// changes nothing.
func TestJQueryUIWidgets(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, serveJQueryUI(t))
	for _, item := range []string{"Apple", "Banana", "Cherry", "Date", "Parcel"} {
		if line := lineOf(t, s, `clickable "`+item+`"`); !strings.Contains(line, " draggable box=") {
			t.Errorf("the drag source's line says neither draggable nor its box: %s", line)
		}
	}
	if line := lineOf(t, s, `droptarget "Mailbox"`); !strings.Contains(line, " box=") {
		t.Errorf("the drop target's line has no box: %s", line)
	}
	if strings.Count(s.Text, "slider handle") != 1 || !strings.Contains(lineOf(t, s, `slider "slider handle"`), `value="10% of its track"`) {
		t.Errorf("want the slider's handle, and only it, as a slider handle at 10%%:\n%s", s.Text)
	}
	refOf(t, s, `clickable "slider track"`)
	pageLog := func() string { return evalPage[string](t, shared, "$('#log').text()") }

	// Sortable: Apple after Cherry (dropped on its bottom), then Date
	// before Banana (on its top).
	do(t, shared, contract.Action{Name: contract.ActDrag, Ref: refOf(t, s, `clickable "Apple"`), ToRef: refOf(t, s, `clickable "Cherry"`), ToAnchor: "bottom"})
	do(t, shared, contract.Action{Name: contract.ActDrag, Ref: refOf(t, s, `clickable "Date"`), ToRef: refOf(t, s, `clickable "Banana"`), ToAnchor: "top"})
	order := func() string {
		return evalPage[string](t, shared, "$('#sortable li').map((i, l) => $(l).text()).get().join(',')")
	}
	if got := order(); got != "Date,Banana,Cherry,Apple" {
		t.Errorf("order after two drags = %s, want Date,Banana,Cherry,Apple", got)
	}
	// A drop off screen is refused before anything is sent.
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActDrag, Ref: refOf(t, s, `clickable "Banana"`), To: &contract.Point{X: -5, Y: 100}})
	if !isActionError(err) || !strings.Contains(err.Error(), "outside the viewport") {
		t.Errorf("drop off screen: %v", err)
	}
	if got := order(); got != "Date,Banana,Cherry,Apple" {
		t.Errorf("a refused drag changed the list: %s", got)
	}

	// Draggable onto droppable.
	out := do(t, shared, contract.Action{Name: contract.ActDrag, Ref: refOf(t, s, `clickable "Parcel"`), ToRef: refOf(t, s, `droptarget "Mailbox"`)})
	if !strings.Contains(out, `onto droptarget "Mailbox"`) || evalPage[string](t, shared, "$('#drop').text()") != "Delivered" {
		t.Errorf("drop onto the droppable: %q; the droppable says %q", out, evalPage[string](t, shared, "$('#drop').text()"))
	}

	// Resizable: its corner grip dragged by (60, 40).
	do(t, shared, contract.Action{Name: contract.ActDrag, Ref: refOf(t, s, `clickable "Panel"`), Anchor: "bottom-right", DX: 60, DY: 40})
	if !strings.Contains(pageLog(), "size:210x120") {
		t.Errorf("after dragging the grip by 60, 40 the log is %q, want size:210x120", pageLog())
	}

	// Slider: set in percent of its track, then a value it cannot take.
	handle := refOf(t, s, `slider "slider handle"`)
	out = do(t, shared, contract.Action{Name: contract.ActSetSlider, Ref: handle, Value: "50"})
	if amount := evalPage[string](t, shared, "$('#amount').text()"); !strings.Contains(out, "to 50% of its track") || amount != "50" {
		t.Errorf("set_slider 50: %q; the page's value is %s", out, amount)
	}
	_, err = shared.Do(tctx(t), contract.Action{Name: contract.ActSetSlider, Ref: handle, Value: "150"})
	if !isActionError(err) || !strings.Contains(err.Error(), "from 0 to 100") {
		t.Errorf("set_slider 150: %v", err)
	}
	if amount := evalPage[string](t, shared, "$('#amount').text()"); amount != "50" {
		t.Errorf("a refused value moved the slider to %s", amount)
	}
	// A click on the track at three quarters moves the handle there.
	do(t, shared, contract.Action{Name: contract.ActMouse, Ref: refOf(t, s, `clickable "slider track"`), Anchor: "left", DX: 222})
	if v := evalPage[int](t, shared, "$('#slider').slider('value')"); v < 74 || v > 76 {
		t.Errorf("after a click at three quarters of the track the value is %d", v)
	}

	// Spinner: typed, then stepped with its key.
	spin := refOf(t, s, `spinbutton "Guests"`)
	if out := do(t, shared, contract.Action{Name: contract.ActType, Ref: spin, Text: "7"}); strings.Contains(out, "rejected") {
		t.Errorf("type 7: %q", out)
	}
	do(t, shared, contract.Action{Name: contract.ActPress, Key: "ArrowUp"})
	if v := evalPage[string](t, shared, "$('#spin').val()"); v != "8" {
		t.Errorf("the spinner holds %q after 7 and ArrowUp, want 8", v)
	}
}
