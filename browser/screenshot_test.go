package browser

import (
	"bytes"
	"context"
	"fmt"
	"image/jpeg"
	"image/png"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
)

func TestScreenshot(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
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

// TestScreenshotJPEG: the JPEG shows the part of the page in view, scrolled,
// scaled down to the width asked for.
func TestScreenshotJPEG(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<body style="margin:0"><div style="height:3000px;background:rgb(255,0,0)"></div><div style="height:3000px;background:rgb(0,0,255)"></div></body>`)
	}))
	defer srv.Close()
	if _, err := shared.Do(ctx, contract.Action{Name: contract.ActGoto, URL: srv.URL}); err != nil {
		t.Fatal(err)
	}
	check := func(wantRed bool) {
		t.Helper()
		data, err := shared.ScreenshotJPEG(ctx, 640, 60)
		if err != nil {
			t.Fatal(err)
		}
		img, err := jpeg.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		r, _, bl, _ := img.At(img.Bounds().Dx()/2, 10).RGBA()
		if img.Bounds().Dx() != 640 || (r > bl) != wantRed {
			t.Fatalf("%dx%d, top pixel r=%d b=%d; want red %v", img.Bounds().Dx(), img.Bounds().Dy(), r>>8, bl>>8, wantRed)
		}
	}
	check(true)
	if _, err := shared.Eval(ctx, `window.scrollTo(0, 4000)`); err != nil {
		t.Fatal(err)
	}
	check(false)
}

// BenchmarkScreenshotJPEG is what a trace's screenshot costs a step in
// Chromium (800 px wide, quality 60), beside a PNG capture.
func BenchmarkScreenshotJPEG(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<h1>Products</h1>`)
		for i := range 60 {
			fmt.Fprintf(w, `<p>Product %d <a href="#">details</a> <button>Add to cart</button></p>`, i)
		}
	}))
	defer srv.Close()
	if _, err := shared.Do(ctx, contract.Action{Name: contract.ActGoto, URL: srv.URL}); err != nil {
		b.Fatal(err)
	}
	b.Run("jpeg", func(b *testing.B) {
		for b.Loop() {
			if _, err := shared.ScreenshotJPEG(ctx, 800, 60); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("png", func(b *testing.B) {
		for b.Loop() {
			if _, err := shared.Screenshot(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
}
