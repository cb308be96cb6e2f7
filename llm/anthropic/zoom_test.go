package anthropic_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	imgpng "image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
)

// A zoom returns the region at the display's size, scaled up as far as
// it fits with its shape kept: a red square and a blue one side by side
// fill the left and the right half of the picture, and the result says
// which region it is.
func TestNativeZoom(t *testing.T) {
	t.Parallel()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Squares</title><body style="margin:0;background:#fff">
<div style="position:absolute;left:100px;top:100px;width:50px;height:50px;background:#f00"></div>
<div style="position:absolute;left:150px;top:100px;width:50px;height:50px;background:#00f"></div></body>`)
	}))
	t.Cleanup(page.Close)
	srv := newMessagesServer(t, scriptedClaude([]call{member("zoom", map[string]any{"region": []int{100, 100, 200, 150}})}))
	tab := chrome.Tab(t)
	a, err := agent.New(tab, newClient(t, srv.URL, nil), agent.WithNativeTools(contract.NativeComputer), agent.WithMaxIterations(4))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res := a.Run(ctx, agent.Task{URL: page.URL, Instruction: "Look closely at the squares."})
	if res.Code != agent.CodeSuccess || !strings.Contains(res.Answer, "the region (100, 100)-(200, 150), scaled to fit") {
		t.Fatalf("%s %q: %s", res.Code, res.Answer, res.Message)
	}
	reqs := srv.requests()
	shot := lastToolImage(t, reqs[len(reqs)-1].body)
	img, err := imgpng.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	w, h := tab.Viewport()
	if b := img.Bounds(); b.Dx() != w || b.Dy() != w/2 || b.Dy() > h {
		t.Fatalf("the zoom is %v, want %dx%d: the region's 2:1 at the display's width", b, w, w/2)
	}
	for _, p := range []struct {
		x, y    int
		r, g, b uint32
	}{{w / 4, w / 4, 255, 0, 0}, {3 * w / 4, w / 4, 0, 0, 255}} {
		r, g, b, _ := img.At(p.x, p.y).RGBA()
		if r>>8 != p.r || g>>8 != p.g || b>>8 != p.b {
			t.Errorf("pixel (%d, %d) is %d,%d,%d, want %d,%d,%d", p.x, p.y, r>>8, g>>8, b>>8, p.r, p.g, p.b)
		}
	}
}

// lastToolImage is the picture of the last tool result of a request.
func lastToolImage(t *testing.T, body map[string]any) []byte {
	t.Helper()
	msgs, _ := body["messages"].([]any)
	m, _ := msgs[len(msgs)-1].(map[string]any)
	blocks, _ := m["content"].([]any)
	var data string
	for _, x := range blocks {
		if blk, _ := x.(map[string]any); blk["type"] == "tool_result" {
			inner, _ := blk["content"].([]any)
			for _, y := range inner {
				if im, _ := y.(map[string]any); im["type"] == "image" {
					src, _ := im["source"].(map[string]any)
					data, _ = src["data"].(string)
				}
			}
		}
	}
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil || len(raw) == 0 {
		t.Fatalf("no picture in the last tool result (%v)", err)
	}
	return raw
}
