package mcpserver_test

import (
	"bytes"
	"image/png"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent/webagent/agent"
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
		text := ""
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			text = tc.Text
		}
		t.Fatalf("content %T %q, want a PNG image", res.Content[0], text)
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
	// The picture is what is tested, not a bound: drawing the marks and
	// encoding a whole-page PNG under -race, beside the package's other
	// tests, can pass the 2 s backstop of the other tests.
	s, _ := newServerWith(t, modelserver.ResponderFunc(func(*modelserver.ChatRequest) modelserver.Turn { return modelserver.Turn{Text: "no"} }),
		agent.Limits{OperationTimeout: 15 * time.Second, IterationTimeout: 20 * time.Second})
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
