package mcpserver_test

import (
	"bytes"
	"image/png"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/modelserver"
)

// markPixels counts the pixels of the mark colour in a tool's image.
func markPixels(t *testing.T, res *mcp.CallToolResult) int {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("content %+v, want one image", res.Content)
	}
	ic, ok := res.Content[0].(*mcp.ImageContent)
	if !ok || ic.MIMEType != "image/png" {
		t.Fatalf("content %T, want a PNG image", res.Content[0])
	}
	img, err := png.Decode(bytes.NewReader(ic.Data))
	if err != nil {
		t.Fatal(err)
	}
	n, c := 0, browser.MarkColour
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 == uint32(c.R) && g>>8 == uint32(c.G) && bl>>8 == uint32(c.B) {
				n++
			}
		}
	}
	return n
}

// browser_screenshot with annotate draws the refs on the page's image;
// without, the image is the page alone.
func TestScreenshotAnnotate(t *testing.T) {
	t.Parallel()
	s, _ := newServer(t, modelserver.ResponderFunc(func(*modelserver.ChatRequest) modelserver.Turn { return modelserver.Turn{Text: "no"} }))
	cs := overHTTP(t, s, nil)
	defer cs.Close()
	if res, out := call(t, cs, "browser_navigate", map[string]any{"url": site(t)}); res.IsError {
		t.Fatal(out)
	}
	res, _ := call(t, cs, "browser_screenshot", map[string]any{"annotate": true})
	if n := markPixels(t, res); n < 100 {
		t.Errorf("the annotated screenshot has %d pixels of the mark colour", n)
	}
	res, _ = call(t, cs, "browser_screenshot", map[string]any{})
	if n := markPixels(t, res); n != 0 {
		t.Errorf("the plain screenshot has %d pixels of the mark colour", n)
	}
}
