package eval

import (
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strings"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/eval/sites"
	"github.com/webagent/webagent/modelserver"
)

// The demo account. The password is given to the task as a secret, so the
// model never sees it.
const (
	DemoUser     = "ann"
	DemoPassword = "correct-horse-battery"
	DemoBalance  = "$1,234.56"
)

// Demo is a running demo: the bank site and the scripted model server, both
// on 127.0.0.1.
type Demo struct {
	Bank    *Bank
	SiteURL string
	Model   *modelserver.Server

	site *http.Server
	ln   net.Listener
}

// StartDemo starts the bank site and a model server that follows the demo's
// reference policy.
func StartDemo() (*Demo, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("demo site: %w", err)
	}
	d := &Demo{Bank: sites.NewBank(DemoUser, DemoPassword, DemoBalance), ln: ln}
	d.site = &http.Server{Handler: d.Bank}
	go func() { _ = d.site.Serve(ln) }()
	d.SiteURL = "http://" + ln.Addr().String() + "/"
	d.Model, err = modelserver.Start(BankPolicy())
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("demo model server: %w", err)
	}
	return d, nil
}

// Task is the demo's task.
func (d *Demo) Task() agent.Task {
	return agent.Task{
		URL:         d.SiteURL,
		Instruction: fmt.Sprintf("Sign in as %q with the password <secret>password</secret> and tell me the balance of the checking account.", DemoUser),
		Secrets:     map[string]string{"password": DemoPassword},
	}
}

// Close stops both servers.
func (d *Demo) Close() {
	if d.Model != nil {
		d.Model.Close()
	}
	if d.site != nil {
		_ = d.site.Close()
	}
}

var moneyRe = regexp.MustCompile(`\$[0-9][0-9,]*\.[0-9]{2}`)

// BankPolicy is a scripted model for the bank task. Like a real model it
// sees only the observation it is sent: it finds the controls by role and
// name in the snapshot and uses their refs.
func BankPolicy() modelserver.Responder {
	return modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		obs := req.LastUser()
		if !strings.Contains(obs, "Snapshot:") {
			return modelserver.Turn{Text: "I will look at the page first."}
		}
		if user, ok := modelserver.FindRef(obs, "textbox", "Username"); ok {
			pass, ok := modelserver.FindRef(obs, "textbox", "Password")
			if !ok {
				return failTurn("the sign-in form has no password field")
			}
			signIn, ok := modelserver.FindRef(obs, "button", "Sign in")
			if !ok {
				return failTurn("the sign-in form has no Sign in button")
			}
			return modelserver.Turn{
				Text: "Signing in.",
				ToolCalls: []modelserver.Call{
					modelserver.ToolCall("type", map[string]any{"ref": user, "text": DemoUser}),
					modelserver.ToolCall("type", map[string]any{"ref": pass, "text": "<secret>password</secret>"}),
					modelserver.ToolCall("click", map[string]any{"ref": signIn}),
				},
			}
		}
		if strings.Contains(obs, "Everyday checking") {
			if m := moneyRe.FindString(obs); m != "" {
				return modelserver.Turn{ToolCalls: []modelserver.Call{
					modelserver.ToolCall("done", map[string]any{"answer": "The checking account balance is " + m + "."}),
				}}
			}
		}
		return failTurn("the page shows neither the sign-in form nor the account")
	})
}

func failTurn(reason string) modelserver.Turn {
	return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("fail", map[string]any{"reason": reason})}}
}
