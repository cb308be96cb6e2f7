package browser

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"strings"
	"testing"
	"time"
)

func TestEval(t *testing.T) {
	open(t, shared, servePage(t, `<title>Eval</title><p id=p>hello</p>`))
	v, err := shared.Eval(tctx(t), "({text: document.getElementById('p').textContent, n: 2, list: [true, null]})")
	if err != nil {
		t.Fatal(err)
	}
	m, ok := v.(map[string]any)
	if !ok || m["text"] != "hello" || m["n"] != 2.0 || len(m["list"].([]any)) != 2 {
		t.Errorf("value = %#v", v)
	}
	v, err = shared.Eval(tctx(t), "new Promise((r) => setTimeout(() => r('later'), 10))")
	if err != nil || v != "later" {
		t.Errorf("promise: %v, %v", v, err)
	}
	if v, err := shared.Eval(tctx(t), "undefined"); err != nil || v != nil {
		t.Errorf("undefined: %v, %v", v, err)
	}
	_, err = shared.Eval(tctx(t), "(() => { throw new Error('boom here') })()")
	if err == nil || !strings.Contains(err.Error(), "boom here") || isActionError(err) {
		t.Errorf("exception: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = shared.Eval(ctx, "new Promise(() => {})")
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > time.Second {
		t.Errorf("never-settling promise: %v after %v", err, time.Since(start))
	}
	if v, err := shared.Eval(tctx(t), "1 + 1"); err != nil || v != 2.0 {
		t.Errorf("after a deadline: %v, %v", v, err)
	}
}

func TestScreenshot(t *testing.T) {
	open(t, shared, servePage(t, `<title>Shot</title><body style="background:#f00"><p>red</p></body>`))
	data, err := shared.Screenshot(tctx(t))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != shared.width || b.Dy() != shared.height {
		t.Errorf("size %v, want %dx%d", b, shared.width, shared.height)
	}
	r, g, _, _ := img.At(shared.width-5, shared.height-5).RGBA()
	if r>>8 < 200 || g>>8 > 50 {
		t.Errorf("corner colour r=%d g=%d, want red", r>>8, g>>8)
	}
}
