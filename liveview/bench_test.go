package liveview_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/liveview"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
)

// toggle is a page whose whole screen turns black on a press and white on
// the next, and a square that moves on every animation frame when
// ?animate is set (a page that repaints all the time).
const toggle = `<style>html,body{margin:0;height:100%%;background:#fff}#sq{position:absolute;width:80px;height:80px;background:#c33;top:300px}</style>
<div id="sq"></div><script>
let dark = false;
addEventListener('mousedown', () => { dark = !dark; document.body.style.background = dark ? '#000' : '#fff'; });
if (%v) { const sq = document.getElementById('sq'); let x = 0; (function f() { x = (x + 7) %% 1100; sq.style.left = x + 'px'; requestAnimationFrame(f); })(); }
</script>`

func togglePage(b *testing.B, animate bool) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, toggle, animate)
	}))
	b.Cleanup(srv.Close)
	return srv.URL
}

// measureJS clicks nothing itself: it arms the viewer's page so that the
// next press on its screen starts a clock, and each frame after it is
// decoded and looked at where the press was, until the screen's colour
// there flips; it resolves with the milliseconds between.
const measureJS = `new Promise((ok) => {
  const screen = document.getElementById('screen');
  const c = document.createElement('canvas'); c.width = c.height = 1;
  const g = c.getContext('2d', {willReadFrequently: true});
  let t0 = 0, was = -1, px = 0, py = 0;
  const shade = async (jpeg) => { const bm = await createImageBitmap(jpeg); g.drawImage(bm, px, py, 1, 1, 0, 0, 1, 1); return g.getImageData(0, 0, 1, 1).data[0]; };
  screen.addEventListener('mousedown', (e) => {
    t0 = performance.now();
    const r = screen.getBoundingClientRect();
    px = (e.clientX - r.left) * screen.naturalWidth / r.width; py = (e.clientY - r.top) * screen.naturalHeight / r.height;
  }, {once: true});
  const seen = async (head, jpeg) => {
    if (!t0) return;
    const v = await shade(jpeg);
    if (was < 0) was = 255 - v; // the shade before the press is the other one
    if (Math.abs(v - was) > 128) { window.__lv.onFrame.splice(window.__lv.onFrame.indexOf(seen), 1); ok(performance.now() - t0); }
  };
  window.__lv.onFrame.push(seen);
})`

// BenchmarkInputToFrame: a person's click in the viewer until a frame
// that shows its effect is on the viewer's screen, at 1280x900 (the
// browser's default viewport): the median and p95 over the clicks, the
// frames per second of a page that repaints all the time, and the bytes
// per frame.
func BenchmarkInputToFrame(b *testing.B) {
	url := togglePage(b, false)
	srv, err := liveview.Start(liveview.Config{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close(context.Background())
	v := srv.Open(liveview.Options{})
	br := chrome.Tab(b)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if _, err := br.Do(ctx, contract.Action{Name: contract.ActGoto, URL: url}); err != nil {
		b.Fatal(err)
	}
	v.Attach(br)
	_, control := v.URLs()
	vctx := viewer(b, control)
	benchWait(b, vctx, `window.__lv.frames > 0 && document.getElementById('take') && !document.getElementById('take').hidden`)
	if err := chromedp.Do(vctx, chromedp.Click(chromedp.CSS("#take"))); err != nil {
		b.Fatal(err)
	}
	benchWait(b, vctx, `document.getElementById('screenwrap').classList.contains('mine')`)
	rect, err := chromedp.Run(vctx, chromedp.Evaluate[[]float64](`(() => { const r = document.getElementById('screen').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`))
	if err != nil {
		b.Fatal(err)
	}
	n := max(b.N, 15)
	var lat []float64
	b.ResetTimer()
	for i := range n {
		x, y := rect[0]+rect[2]*float64(10+(i*5)%80)/100, rect[1]+rect[3]*float64(10+(i/16)*5)/100
		wait := make(chan float64, 1)
		go func() {
			ms, _ := chromedp.Run(vctx, chromedp.Evaluate[float64](measureJS, chromedp.EvalAwaitPromise))
			wait <- ms
		}()
		benchWait(b, vctx, `window.__lv.onFrame.length > 0`)
		if err := chromedp.Do(vctx, chromedp.MouseClickXY(x, y)); err != nil {
			b.Fatal(err)
		}
		select {
		case ms := <-wait:
			lat = append(lat, ms)
		case <-time.After(10 * time.Second):
			b.Fatalf("click %d: no frame showed it within 10 s", i)
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(lat[len(lat)/2], "ms-median")
	b.ReportMetric(lat[(len(lat)*95+99)/100-1], "ms-p95")
	b.Logf("input to frame, %d clicks: median %.0f ms, p95 %.0f ms, all %v", len(lat), lat[len(lat)/2], lat[(len(lat)*95+99)/100-1], lat)
	fps, bytes := framesOf(b, vctx, br, togglePage(b, true))
	b.ReportMetric(fps, "frames/s")
	b.ReportMetric(bytes, "bytes/frame")
}

// framesOf counts the viewer's frames over two seconds of a page that
// repaints all the time.
func framesOf(b *testing.B, vctx context.Context, br interface {
	Do(context.Context, contract.Action) (contract.Outcome, error)
}, url string) (fps, perFrame float64) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := br.Do(ctx, contract.Action{Name: contract.ActGoto, URL: url}); err != nil {
		b.Fatal(err)
	}
	const window = 2 * time.Second
	start, err := chromedp.Run(vctx, chromedp.Evaluate[[]float64](`[window.__lv.frames, window.__lv.bytes]`))
	if err != nil {
		b.Fatal(err)
	}
	<-time.After(window) // the measuring window itself
	end, err := chromedp.Run(vctx, chromedp.Evaluate[[]float64](`[window.__lv.frames, window.__lv.bytes]`))
	if err != nil {
		b.Fatal(err)
	}
	frames := end[0] - start[0]
	if frames == 0 {
		b.Fatal("no frames of an animated page")
	}
	return frames / window.Seconds(), (end[1] - start[1]) / frames
}

func benchWait(b *testing.B, ctx context.Context, expr string) {
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	js := fmt.Sprintf(`new Promise((ok) => { const f = () => { try { if (%s) return ok(true); } catch (e) {} setTimeout(f, 10); }; f(); })`, expr)
	if _, err := chromedp.Run(wctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise)); err != nil {
		b.Fatalf("waiting for %s: %v", expr, err)
	}
}

// BenchmarkStepWithViewers: a task's step time on a page that repaints all
// the time, with 0, 1 and 5 viewers that read every frame, and with one
// that stopped reading (dropped after its write deadline, its frames
// never queued): ms per step, and the heap after.
func BenchmarkStepWithViewers(b *testing.B) {
	url := togglePage(b, true)
	for _, c := range []struct {
		name            string
		readers, stalls int
	}{{"viewers=0", 0, 0}, {"viewers=1", 1, 0}, {"viewers=5", 5, 0}, {"stalled=1", 0, 1}} {
		b.Run(c.name, func(b *testing.B) {
			steps := 12 * max(b.N, 1)
			calls := 0
			var first time.Time
			model, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
				calls++
				if first.IsZero() {
					first = time.Now()
				}
				// A stalled viewer's run lasts past the write deadline
				// that drops it.
				long := c.stalls > 0 && time.Since(first) < 7*time.Second
				if calls > steps && !long {
					return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]string{"answer": "ok"})}}
				}
				return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("mouse", map[string]any{"op": "hover", "x": 10 + calls, "y": 10})}}
			}))
			if err != nil {
				b.Fatal(err)
			}
			defer model.Close()
			m, _ := llm.New(llm.Config{BaseURL: model.BaseURL(), Model: "scripted"})
			srv, err := liveview.Start(liveview.Config{})
			if err != nil {
				b.Fatal(err)
			}
			defer srv.Close(context.Background())
			v := srv.Open(liveview.Options{})
			br := chrome.Tab(b)
			v.Attach(br)
			_, control := v.URLs()
			for range c.readers {
				go readAll(b, control)
			}
			for range c.stalls {
				stall(b, control)
			}
			for deadline := time.Now().Add(30 * time.Second); v.Viewers() < c.readers+c.stalls; {
				if time.Now().After(deadline) {
					b.Fatalf("%d viewers joined, want %d", v.Viewers(), c.readers+c.stalls)
				}
				runtime.Gosched()
			}
			a, _ := agent.New(br, m, agent.WithObserver(v), agent.WithControl(v.Lease()), agent.WithMaxIterations(steps+1000))
			b.ResetTimer()
			res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "hover"})
			b.StopTimer()
			if res.Code != agent.CodeSuccess {
				b.Fatalf("%s: %s", res.Code, res.Message)
			}
			var act int64
			for _, s := range res.Steps {
				act += s.SnapshotMS + s.ActionMS
			}
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(act)/float64(len(res.Steps)), "ms/step")
			b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "MiB-heap")
			// Loopback's socket buffers take seconds of frames before a
			// stalled viewer's write blocks and its deadline drops it.
			b.ReportMetric(float64(v.Viewers()), "viewers-left")
			v.Close()
		})
	}
}

// readAll is a viewer that reads everything until its socket ends.
func readAll(b *testing.B, url string) {
	ws := strings.Replace(strings.Replace(url, "http://", "ws://", 1), "?t=", "/ws?t=", 1)
	c, _, err := websocket.Dial(context.Background(), ws, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	c.SetReadLimit(-1)
	for {
		if _, _, err := c.Read(context.Background()); err != nil {
			return
		}
	}
}

// stall is a viewer that connects and never reads.
func stall(b *testing.B, url string) {
	ws := strings.Replace(strings.Replace(url, "http://", "ws://", 1), "?t=", "/ws?t=", 1)
	c, _, err := websocket.Dial(context.Background(), ws, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.CloseNow() })
}
