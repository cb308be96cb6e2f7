package suite

import (
	"encoding/json"
	"fmt"

	"github.com/webagent/webagent/internal/outline"
	"github.com/webagent/webagent/modelserver"
)

// maxScrolls bounds the scrolls the policy sends in a row to bring one
// step's element onto the screen.
const maxScrolls = 8

// onScreen is the reply of a turn for a model that answers in coordinates
// (the observation lists where a click reaches each ref in view): its
// calls up to the first whose element is not on the screen, whose step the
// next reply takes up ("to step K" in the marker); when that is the
// first, a scroll toward it. The server expresses each call at its ref's
// point.
func (p *policy) onScreen(tr Turn, n int, marker string, calls []modelserver.Call, steps []int, lines []outline.Line, spots map[string]outline.Spot, pl place) modelserver.Turn {
	k := 0
	for ; k < len(calls); k++ {
		if ref := refArg(calls[k]); ref != "" {
			if s, ok := spots[ref]; !ok || s.Covered {
				break
			}
		}
	}
	if k == len(calls) {
		return modelserver.Turn{Text: fmt.Sprintf("%s (line %d): %s", marker, tr.Line, tr.Source), ToolCalls: calls}
	}
	part := fmt.Sprintf("%s, to step %d", marker, steps[k])
	if k > 0 {
		return modelserver.Turn{Text: fmt.Sprintf("%s (line %d): %s", part, tr.Line, tr.Source), ToolCalls: calls[:k]}
	}
	ref := refArg(calls[0])
	if pl.last == n && pl.upto == steps[0] && pl.same >= maxScrolls {
		return failTurn(fmt.Sprintf("%s: %s did not come onto the screen after %d scrolls", p.where(n, tr), ref, pl.same))
	}
	dir := scrollToward(lines, spots, ref)
	return modelserver.Turn{Text: fmt.Sprintf("%s (line %d): scrolling %s to %s", part, tr.Line, dir, ref),
		ToolCalls: []modelserver.Call{modelserver.ToolCall("scroll", map[string]string{"direction": dir})}}
}

// refArg is a call's ref argument, or "".
func refArg(c modelserver.Call) string {
	var a struct{ Ref string }
	_ = json.Unmarshal([]byte(c.Args), &a)
	return a.Ref
}

// scrollToward is the way to scroll to bring ref onto the screen: up when
// most of the refs on the screen come after it in the outline, else down.
// A covered element (under a banner or a sticky header) is scrolled to
// as one below.
func scrollToward(lines []outline.Line, spots map[string]outline.Spot, ref string) string {
	at, before, after := -1, 0, 0
	for i, l := range lines {
		if l.Ref == ref {
			at = i
		}
	}
	for i, l := range lines {
		if s, ok := spots[l.Ref]; !ok || s.Covered || l.Ref == ref {
			continue
		}
		if i < at {
			before++
		} else {
			after++
		}
	}
	if after > before {
		return "up"
	}
	return "down"
}
