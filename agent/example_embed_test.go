package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
)

// exampleSetup serves one page and a scripted model that plays turns; in a
// program, the page is any site and the model any OpenAI-compatible
// endpoint (llm.Config{BaseURL: …, Model: …}).
func exampleSetup(html string, turns ...modelserver.Turn) (url string, model *llm.Client, closeAll func()) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, html)
	}))
	srv, err := modelserver.Start(modelserver.Script(turns...))
	if err != nil {
		panic(err)
	}
	model, err = llm.New(llm.Config{BaseURL: srv.BaseURL(), Model: "scripted"})
	if err != nil {
		panic(err)
	}
	return site.URL, model, func() { srv.Close(); site.Close() }
}

// A typed answer: RunAs derives the JSON Schema of done's answer from the
// struct, refuses answers that break it (the model tries again) and
// decodes the accepted one.
func ExampleRunAs() {
	type Order struct {
		Number string  `json:"number" jsonschema:"the order number, e.g. SO-1"`
		Total  float64 `json:"total"`
	}
	url, model, closeAll := exampleSetup(`<title>Order</title><h1>Order SO-42</h1><p>Total 19.50</p>`,
		modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": map[string]any{"number": "SO-42"}})}},
		modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": map[string]any{"number": "SO-42", "total": 19.5}})}},
	)
	defer closeAll()

	a, err := agent.New(shared, model) // shared: a browser.Browser
	if err != nil {
		panic(err)
	}
	order, res, err := agent.RunAs[Order](context.Background(), a, agent.Task{URL: url, Instruction: "Read the order's number and total."})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%+v after %d iterations\n", order, res.Iterations)
	// Output: {Number:SO-42 Total:19.5} after 2 iterations
}

// A tool of the program's own: the model calls it by name with arguments
// that match its schema; it runs under its own budget.
func ExampleWithTools() {
	url, model, closeAll := exampleSetup(`<title>Shop</title><p>Desk lamp, SKU-9</p>`,
		modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("stock", map[string]any{"sku": "SKU-9"})}},
		modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": "3 desk lamps in stock"})}},
	)
	defer closeAll()

	stock := agent.CustomTool{
		Name:        "stock",
		Description: "How many items of a SKU the warehouse holds.",
		Parameters:  json.RawMessage(`{"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]}`),
		Run: func(ctx context.Context, args json.RawMessage) (string, error) {
			var in struct{ SKU string }
			if err := json.Unmarshal(args, &in); err != nil {
				return "", err
			}
			return fmt.Sprintf("%s: 3 in stock", in.SKU), nil // a database query, in a program
		},
	}
	a, err := agent.New(shared, model, agent.WithTools(stock))
	if err != nil {
		panic(err)
	}
	res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "How many desk lamps are in stock?"})
	fmt.Println(res.Code, res.Steps[0].Actions[0].Tool, "→", res.Steps[0].Actions[0].Outcome)
	fmt.Println(res.Answer)
	// Output:
	// SUCCESS stock → SKU-9: 3 in stock
	// 3 desk lamps in stock
}

// The program's own instructions, added to the system message.
func ExampleWithSystemPrompt() {
	url, model, closeAll := exampleSetup(`<title>Wiki</title><p>Paris</p>`,
		modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": "PARIS"})}},
	)
	defer closeAll()

	a, err := agent.New(shared, model, agent.WithSystemPrompt("Answer in capital letters only."))
	if err != nil {
		panic(err)
	}
	res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "Which city is named?"})
	fmt.Println(res.Code, strings.ToUpper(res.Answer) == res.Answer)
	// Output: SUCCESS true
}
