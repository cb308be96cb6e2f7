package cache_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/signin"
	"github.com/webagent/webagent/testfixture/tier"
)

// scriptSignIn signs in with one script that presses the form's first
// button, whatever its name, then answers from the script's result.
func scriptSignIn() modelserver.Responder {
	return modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		call := func(name string, args map[string]any) modelserver.Turn {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall(name, args)}}
		}
		if last := req.LastTool(); last != "" {
			if strings.Contains(last, "Your plan: Gold") {
				return call("done", map[string]any{"answer": "plan: Gold"})
			}
			return call("fail", map[string]any{"reason": "not signed in: " + last})
		}
		user := "ann"
		for _, m := range req.Messages {
			if rest, ok := strings.CutPrefix(m.Content, "Task: Sign in as "); ok && m.Role == "user" {
				user = strings.Fields(rest)[0]
			}
		}
		return call("script", map[string]any{"code": `var s = snapshot();
type(s.find({role: "textbox", name: "Username"}).ref, "` + user + `");
type(s.find({role: "textbox", name: "Password"}).ref, "<secret>pw</secret>");
click(s.findAll({role: "button"})[0].ref);
return snapshot().text;`})
	})
}

// TestCacheScript: a run whose model signed in with one script is replayed
// from the cache with no model call, the script's calls checked one by one
// against the elements they aimed at; on a page whose first button is
// "Delete account", the replayed script stops before pressing it, and the
// model is asked.
func TestCacheScript(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	members := signin.New()
	srv := httptest.NewServer(members)
	defer srv.Close()
	model, err := modelserver.Start(scriptSignIn())
	if err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, ctx, srv.URL+"/", model)

	res, calls := r.run("ann")
	if res.Code != agent.CodeSuccess || calls != 2 {
		t.Fatalf("first run: %s %q with %d model calls (%s)", res.Code, res.Answer, calls, res.Message)
	}
	res, calls = r.run("bob")
	logins, _ := members.State()
	if res.Code != agent.CodeSuccess || calls != 0 || logins[len(logins)-1] != "bob" {
		t.Fatalf("replayed: %s with %d model calls; sign-ins %v (%s)", res.Code, calls, logins, res.Message)
	}

	members.Set("", true)
	defer members.Set("Sign in", false)
	_, before := members.State()
	res, calls = r.run("ann")
	if _, deleted := members.State(); deleted != before {
		t.Fatalf("the replayed script pressed Delete account (%s, %d model calls)", res.Code, calls)
	}
	if calls == 0 || len(res.Steps) == 0 || !strings.Contains(res.Steps[0].Actions[0].Outcome, `recorded on button "Sign in"`) {
		t.Fatalf("%s with %d model calls; first step %+v", res.Code, calls, res.Steps)
	}
}
