package agent_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/modelserver"
)

// A scene whose shapes move or change colour (an animation, a game), drawn
// in SVG or on a canvas, is a changing page: a model that clicks a moving circle three
// times in a row is not stopped as stuck, as it is on a page where
// nothing moves. What a canvas shows is read from its pixels, or from the
// canvas log an Observable browser keeps.
func TestMovingSceneIsNotStuck(t *testing.T) {
	t.Parallel()
	scenes := map[string]struct{ page, step string }{
		"svg": {
			`<svg width=300 height=200><circle id=c cx=150 cy=100 r=40 fill=red onclick="window.hits=(window.hits||0)+1"/></svg>
<script>const c = document.getElementById('c'); let x = 150; const draw = () => c.setAttribute('cx', x);`,
			`x = 110 + (Date.now() / 4) % 80; draw();`,
		},
		"svg-colour": {
			`<svg width=300 height=200><circle id=c cx=150 cy=100 r=40 fill=red onclick="window.hits=(window.hits||0)+1"/></svg>
<script>const c = document.getElementById('c'); let n = 0; const draw = () => c.setAttribute('fill', 'rgb(' + n % 256 + ',0,0)');`,
			`n++; draw();`,
		},
		"canvas": {
			`<canvas id=c width=300 height=200 onclick="window.hits=(window.hits||0)+1"></canvas>
<script>const g = document.getElementById('c').getContext('2d'); let x = 150;
const draw = () => { g.clearRect(0, 0, 300, 200); g.fillStyle = 'red'; g.beginPath(); g.arc(x, 100, 40, 0, 2 * Math.PI); g.fill(); };`,
			`x = 110 + (Date.now() / 4) % 80; draw();`,
		},
	}
	scenes["canvas-observable"] = scenes["canvas"]
	for name, sc := range scenes {
		for _, moving := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/moving=%v", name, moving), func(t *testing.T) {
				t.Parallel()
				step := ""
				if moving {
					step = sc.step
				}
				url := page(t, `<title>Scene</title>`+sc.page+` draw(); requestAnimationFrame(function tick(){ `+step+` requestAnimationFrame(tick); });</script>`)
				clicks := 0
				m, _ := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
					if clicks == 4 {
						return callTurn("done", map[string]string{"answer": "clicked"})
					}
					clicks++
					return callTurn("mouse", map[string]any{"x": 100, "y": 108})
				}))
				b := tab(t)
				if name == "canvas-observable" {
					b = chrome.Browser(t, browser.Options{Observable: true})
				}
				res := mustAgent(t, b, m).Run(context.Background(), agent.Task{URL: url, Instruction: "click the circle four times"})
				if stuck := res.Code == agent.CodeAgentStuck; stuck == moving {
					t.Errorf("moving %v: %s %s", moving, res.Code, res.Message)
				}
			})
		}
	}
}
