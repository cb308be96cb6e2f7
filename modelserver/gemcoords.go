package modelserver

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"math"
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
// A call it cannot express (done, goto, a ref off the screen, a point
// without a screen's size) goes as it is.
func geminiActions(calls []Call, req *ChatRequest) []Call {
	spots := spotsOf(req)
	if req.Screen[0] == 0 {
		req.Screen[0], req.Screen[1] = screenInView(req)
	}
	var out []Call
	for _, c := range calls {
		a, ok := aimOf(c, spots)
		if !ok || (a.pointed() && req.Screen[0] <= 0) {
			out = append(out, c)
			continue
		}
		x, y := gridOf(a.x, req.Screen[0]), gridOf(a.y, req.Screen[1])
		switch a.tool {
		case "click":
			out = append(out, ToolCall("click_at", map[string]any{"x": x, "y": y}))
		case "type":
			out = append(out, ToolCall("type_text_at", map[string]any{"x": x, "y": y, "text": a.text, "press_enter": a.submit, "clear_before_typing": true}))
		case "select":
			out = append(out, ToolCall("type_text_at", map[string]any{"x": x, "y": y, "text": a.text, "press_enter": true, "clear_before_typing": false}))
		case "press":
			out = append(out, ToolCall("key_combination", map[string]any{"keys": xdotoolChord(a.text)}))
		case "scroll":
			out = append(out, ToolCall("scroll_document", map[string]any{"direction": a.dir}))
		}
	}
	return out
}
