package routinesite

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/webagent/webagent/internal/outline"
	"github.com/webagent/webagent/modelserver"
)

// CustomerTask is the task of adding a customer; its password is the
// secret customer_pw.
func CustomerTask(name, email, plan string) string {
	return fmt.Sprintf("Add the customer %s (%s) on the %s plan, with the password <secret>customer_pw</secret>", name, email, plan)
}

// OrderTask is the task of ordering qty of a product, from the shop.
func OrderTask(qty int, product string) string {
	return fmt.Sprintf("Order %d of the %s", qty, product)
}

// BothTask adds a customer, orders for them and asks for the receipt by
// email: two routines' work and one step of its own.
func BothTask(name, email, plan string, qty int, product string) string {
	return CustomerTask(name, email, plan) + fmt.Sprintf(", then order %d of the %s and ask for the receipt by email", qty, product)
}

var (
	customerRE = regexp.MustCompile(`Add the customer (.+?) \((.+?)\) on the (\w+) plan`)
	orderRE    = regexp.MustCompile(`(?i)order (\d+) of the (.+?)(?: and |$)`)
)

// step is one call the model makes: a tool on an element found by role
// and name, with its other arguments.
type step struct {
	tool, role, name string
	args             map[string]any
}

// Model is the scripted model of the site's tasks. Offered the routines
// routine_add_customer (full_name, email, plan) and routine_order_item
// (product, quantity), it calls them, one a turn; else it does each step
// itself, one call a turn, reading the refs from the pages it was shown.
// Either way it ends by checking "Email me the receipt" (when the task
// asks) and answering, in one turn. Asked to heal a routine's step, it
// names the button that plays the saved one's part.
func Model() modelserver.Responder {
	return modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		if len(req.Messages) > 0 && strings.Contains(req.Messages[0].Content, "You repair one step of a saved routine") {
			return heal(req)
		}
		task := ""
		for _, m := range req.Messages {
			if rest, ok := strings.CutPrefix(m.Content, "Task: "); ok && m.Role == "user" {
				task = rest
			}
		}
		turns := plan(task, slices.Contains(req.ToolNames(), "routine_add_customer"))
		done := 0
		for _, m := range req.Messages {
			if m.Role == "assistant" && len(m.ToolCalls) > 0 {
				done++
			}
		}
		if done >= len(turns) {
			return call("fail", map[string]any{"reason": "the plan ran out"})
		}
		var calls []modelserver.Call
		for _, s := range turns[done] {
			args := map[string]any{}
			for k, v := range s.args {
				args[k] = v
			}
			if s.role != "" {
				ref, ok := findRef(req, s.role, s.name)
				if !ok {
					return call("fail", map[string]any{"reason": fmt.Sprintf("no %s %q on the page", s.role, s.name)})
				}
				args["ref"] = ref
			}
			calls = append(calls, modelserver.ToolCall(s.tool, args))
		}
		return modelserver.Turn{ToolCalls: calls}
	})
}

// plan is the task's turns.
func plan(task string, routines bool) [][]step {
	var turns [][]step
	one := func(s step) { turns = append(turns, []step{s}) }
	c := customerRE.FindStringSubmatch(task)
	if c != nil {
		if routines {
			one(step{tool: "routine_add_customer", args: map[string]any{"full_name": c[1], "email": c[2], "plan": c[3]}})
		} else {
			one(step{"type", "textbox", "Full name", map[string]any{"text": c[1]}})
			one(step{"type", "textbox", "Email", map[string]any{"text": c[2]}})
			one(step{"click", "button", "Next", nil})
			one(step{"select", "combobox", "Plan", map[string]any{"option": c[3]}})
			one(step{"type", "textbox", "Password", map[string]any{"text": "<secret>customer_pw</secret>"}})
			one(step{"click", "button", "Create customer", nil})
		}
	}
	if o := orderRE.FindStringSubmatch(strings.TrimPrefix(task, c0(c))); o != nil {
		if routines {
			one(step{tool: "routine_order_item", args: map[string]any{"product": o[2], "quantity": o[1]}})
		} else {
			if c != nil {
				one(step{"click", "link", "Shop", nil})
			}
			one(step{"click", "link", o[2], nil})
			one(step{"type", "textbox", "Quantity", map[string]any{"text": o[1]}})
			one(step{"click", "button", "Add to cart", nil})
			one(step{"click", "button", "Place order", nil})
		}
	}
	last := []step{{tool: "done", args: map[string]any{"answer": "done"}}}
	if strings.Contains(task, "receipt by email") {
		last = append([]step{{"check", "checkbox", "Email me the receipt", nil}}, last...)
	}
	return append(turns, last)
}

func c0(c []string) string {
	if c == nil {
		return ""
	}
	return c[0]
}

// findRef finds an element in the pages the model was shown, the latest
// first (a delta lists only what changed).
func findRef(req *modelserver.ChatRequest, role, name string) (string, bool) {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		m := req.Messages[i]
		if m.Role != "user" && m.Role != "tool" {
			continue
		}
		if ref, ok := outline.FindRef(m.Content, role, name); ok {
			return ref, true
		}
	}
	return "", false
}

// heal answers a healer's question: the step's tool on the button the
// site renamed the saved one to.
func heal(req *modelserver.ChatRequest) modelserver.Turn {
	page := req.LastUser()
	var step string
	for _, m := range req.Messages {
		if strings.Contains(m.Content, "The step:") {
			step = m.Content
		}
	}
	renames := map[string]string{"Next": "Continue", "Place order": "Complete purchase", "Create customer": "Save customer"}
	for old, now := range renames {
		if strings.Contains(step, fmt.Sprintf("%q", old)) {
			if ref, ok := outline.FindRef(page, "button", now); ok {
				tool := "click"
				if t := req.Tools; len(t) > 0 {
					tool = t[0].Name
				}
				return call(tool, map[string]any{"ref": ref})
			}
		}
	}
	return call("fail", map[string]any{"reason": "no button plays its part"})
}

func call(name string, args map[string]any) modelserver.Turn {
	b, _ := json.Marshal(args)
	return modelserver.Turn{ToolCalls: []modelserver.Call{{Name: name, Args: string(b)}}}
}
