package anthropic_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/policy"
)

// Claude's browser use tool through the Messages API: read_page gives the
// outline whose refs form_input and left_click then target; a click by
// ref on "Place order" is confirmed as webagent's click is; every result
// reports the tabs in a browser_state block, a screenshot's its picture.
func TestBrowserToolByRef(t *testing.T) {
	t.Parallel()
	c := newCheckout(t)
	purchases, err := policy.Presets("purchases")
	if err != nil {
		t.Fatal(err)
	}
	srv := newMessagesServer(t, func(w http.ResponseWriter, r *http.Request, body map[string]any, n int) {
		switch n {
		case 0:
			streamReply(w, "", "", []call{{"browser:read_page", `{}`}})
		case 1:
			page := toolResultText(body)
			name, _ := modelserver.FindRef(page, "textbox", "Your name")
			order, _ := modelserver.FindRef(page, "button", "Place order")
			streamReply(w, "", "", []call{
				{"browser:form_input", `{"target":{"type":"ref","ref":"` + name + `"},"value":"Ada"}`},
				{"browser:left_click", `{"target":{"type":"ref","ref":"` + order + `"}}`},
			})
		case 2:
			streamReply(w, "", "", []call{{"browser:screenshot", `{}`}})
		default:
			answer, _ := json.Marshal(map[string]string{"answer": toolResultText(body)})
			streamReply(w, "", "", []call{{"done", string(answer)}})
		}
	})
	var asked atomic.Int32
	res := runNative(t, chrome.Tab(t), srv, c, agent.WithNativeTools(contract.NativeBrowser), agent.WithPolicy(purchases),
		agent.WithHumanTimeout(10e9), agent.WithConfirmer(agent.ConfirmerFunc(func(_ context.Context, q agent.Confirmation) (bool, error) {
			asked.Add(1)
			return strings.Contains(q.Question, `button "Place order"`), nil
		})))
	if res.Code != agent.CodeSuccess {
		t.Fatalf("%s: %s", res.Code, res.Message)
	}
	if c.orders.Load() != 1 || asked.Load() != 1 {
		t.Fatalf("%d orders, %d questions; steps %+v", c.orders.Load(), asked.Load(), res.Steps)
	}
	if acts := res.Steps[1].Actions; len(acts) != 2 || !strings.Contains(acts[0].Outcome, `typed "Ada" into textbox "Your name"`) {
		t.Errorf("form_input: %+v", acts)
	}
	reqs := srv.requests()
	tools, _ := json.Marshal(reqs[0].body["tools"])
	if !strings.Contains(string(tools), `{"type":"browser_toolset_20260801"}`) || strings.Contains(string(tools), `"name":"goto"`) {
		t.Errorf("tools: %s", tools)
	}
	second, _ := json.Marshal(reqs[1].body["messages"])
	if !strings.Contains(string(second), `"toolset_name":"browser","type":"tool_result"`) || !strings.Contains(string(second), `"type":"browser_state"`) ||
		!strings.Contains(string(second), `"url":"`+c.url+`"`) || strings.Contains(string(second), `"media_type":"image/png"`) {
		t.Errorf("read_page's result: %s", second)
	}
	if last, _ := json.Marshal(reqs[3].body["messages"]); !strings.Contains(string(last), `"media_type":"image/png"`) {
		t.Error("the screenshot's result holds no picture")
	}
}
