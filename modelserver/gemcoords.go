package modelserver

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"math"

	"github.com/webagent/webagent/internal/outline"
)

// Gemini's computer use answers on a 1000 by 1000 grid over the
// screenshot, whatever its size: the server reads the size off the
// request's latest screenshot, or the in-view line before the first, and
// writes the calls by ref as its predefined functions at the refs' points
// (click_at, type_text_at, ...).

// screenOf is the width and height of the last PNG among parts; 0, 0 when
// there is none.
func screenOf(contents []gemContent) (w, h int) {
	for _, c := range contents {
		for _, p := range allParts(c.Parts) {
			if p.InlineData == nil || p.InlineData.MIMEType != "image/png" {
				continue
			}
			raw, err := base64.StdEncoding.DecodeString(p.InlineData.Data)
			if err != nil {
				continue
			}
			if cfg, err := png.DecodeConfig(bytes.NewReader(raw)); err == nil {
				w, h = cfg.Width, cfg.Height
			}
		}
	}
	return w, h
}

// allParts are parts with those of their function responses, in order.
func allParts(parts []gemPart) []gemPart {
	var out []gemPart
	for _, p := range parts {
		out = append(out, p)
		if p.FunctionResp != nil {
			out = append(out, p.FunctionResp.Parts...)
		}
	}
	return out
}

// gridOf is a pixel on a side of size as a 0-999 grid value.
func gridOf(v, size int) int {
	if size <= 0 {
		return 0
	}
	return min(max(int(math.Round(float64(v)*1000/float64(size))), 0), 999)
}

// geminiActions expresses calls of webagent's tools by ref as Gemini's
// computer use functions at the refs' points: click is click_at, type
// type_text_at (cleared first, Enter to submit), select type_text_at of
// the option with Enter, press key_combination, scroll scroll_document.
// A call it cannot express (done, goto, a ref off the screen) goes as it
// is.
func geminiActions(calls []Call, req *ChatRequest) []Call {
	spots := spotsOf(req)
	if req.Screen[0] == 0 {
		req.Screen[0], req.Screen[1] = screenInView(req)
	}
	var out []Call
	for _, c := range calls {
		var a struct {
			Ref, Text, Option, Key, Direction string
			Submit                            bool
		}
		var s outline.Spot
		on := false
		if json.Unmarshal([]byte(c.Args), &a) == nil {
			s, on = spots[a.Ref]
			on = on && !s.Covered && req.Screen[0] > 0
		}
		x, y := gridOf(s.X, req.Screen[0]), gridOf(s.Y, req.Screen[1])
		switch {
		case c.Name == "click" && on:
			out = append(out, ToolCall("click_at", map[string]any{"x": x, "y": y}))
		case c.Name == "type" && on:
			out = append(out, ToolCall("type_text_at", map[string]any{"x": x, "y": y, "text": a.Text, "press_enter": a.Submit, "clear_before_typing": true}))
		case c.Name == "select" && on:
			out = append(out, ToolCall("type_text_at", map[string]any{"x": x, "y": y, "text": a.Option, "press_enter": true, "clear_before_typing": false}))
		case c.Name == "press" && a.Key != "":
			out = append(out, ToolCall("key_combination", map[string]any{"keys": xdotoolChord(a.Key)}))
		case c.Name == "scroll" && a.Direction != "":
			out = append(out, ToolCall("scroll_document", map[string]any{"direction": a.Direction}))
		default:
			out = append(out, c)
		}
	}
	return out
}
