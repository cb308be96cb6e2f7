package liveview_test

import (
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/liveview"
)

// TestEndShowsResult: a View that finishes and closes at once (a run's
// end) still shows its viewer the result and that the run ended; the page
// does not try to reconnect.
func TestEndShowsResult(t *testing.T) {
	t.Parallel()
	srv := serve(t, liveview.Config{})
	v := srv.Open(liveview.Options{Title: "ending", Task: "end at once"})
	_, control := v.URLs()
	vctx := viewer(t, control)
	waitJS(t, vctx, `document.getElementById('title').textContent === 'ending'`, 20*time.Second)
	v.OnStep(agent.Step{Iteration: 1, Thought: "looking"})
	waitJS(t, vctx, `document.querySelectorAll('#steps li').length === 1`, 10*time.Second)
	v.Finish(&agent.Result{Status: agent.StatusSuccess, Code: agent.CodeSuccess, Message: "done", Answer: "forty-two", Iterations: 1})
	v.Close()
	waitJS(t, vctx, `document.getElementById('result').textContent.includes('forty-two')`, 10*time.Second)
	waitJS(t, vctx, `document.getElementById('status').textContent.includes('ended')`, 10*time.Second)
}
