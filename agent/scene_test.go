package agent_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/modelserver"
)

// A scene whose shapes move (an animation, a game) is a changing page: a
// model that clicks a moving circle three times in a row is not stopped
// as stuck, as it is on a page where nothing moves.
func TestMovingSceneIsNotStuck(t *testing.T) {
	t.Parallel()
	for _, moving := range []bool{true, false} {
		t.Run(fmt.Sprintf("moving=%v", moving), func(t *testing.T) {
			t.Parallel()
			step := ""
			if moving {
				step = `requestAnimationFrame(function tick(){ c.setAttribute('cx', 150 + 40 * Math.sin(Date.now() / 400)); requestAnimationFrame(tick); });`
			}
			url := page(t, `<title>Scene</title><svg width=300 height=200><circle id=c cx=150 cy=100 r=40 fill=red onclick="window.hits=(window.hits||0)+1"/></svg>
<script>const c = document.getElementById('c'); `+step+`</script>`)
			clicks := 0
			m, _ := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
				if clicks == 4 {
					return callTurn("done", map[string]string{"answer": "clicked"})
				}
				clicks++
				return callTurn("mouse", map[string]any{"x": 100, "y": 108})
			}))
			res := mustAgent(t, tab(t), m).Run(context.Background(), agent.Task{URL: url, Instruction: "click the circle four times"})
			if stuck := res.Code == agent.CodeAgentStuck; stuck == moving {
				t.Errorf("moving %v: %s %s", moving, res.Code, res.Message)
			}
		})
	}
}
