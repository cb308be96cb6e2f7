package cache_test

import (
	"context"
	"fmt"
	"log"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/cache"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/trace"
)

// A task written once with a variable serves every customer: the values
// go in place of {{name}}, and the key, which names the task in the cache,
// is the same whatever the values.
func ExampleExpand() {
	task := "Add the customer {{name}} with the email {{email}}"
	for _, vars := range []map[string]string{
		{"name": "Ann Lee", "email": "ann@example.com"},
		{"name": "Bo Chen", "email": "bo@example.com"},
	} {
		texts, err := cache.Expand(vars, task)
		if err != nil {
			fmt.Println(err)
			return
		}
		key := cache.Key{Task: task, URL: "https://crm.example.com/new", Vars: []string{"name", "email"}}
		fmt.Println(texts[0], "→", key.ID())
	}
	_, err := cache.Expand(map[string]string{"name": "Ann Lee"}, task)
	fmt.Println(err)
	// Output:
	// Add the customer Ann Lee with the email ann@example.com → add-the-customer-name-with-the-email-ema-8b7d53fc5090
	// Add the customer Bo Chen with the email bo@example.com → add-the-customer-name-with-the-email-ema-8b7d53fc5090
	// the task uses {{email}} but no value is given for email
}

// An embedder runs a task under the cache: Begin looks the task up, the
// session's Options give the loop the stored run (if any), its Trace
// records this run, and Finish keeps it when it succeeded and asked the
// model. Result.Replay says what came from where.
func ExampleCache_Begin() {
	ctx := context.Background()
	c, err := cache.Open("runs", nil)
	if err != nil {
		log.Fatal(err)
	}
	b, err := browser.Launch(ctx, browser.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	model, err := llm.New(llm.Config{BaseURL: "http://localhost:11434/v1", Model: "llama3.1"})
	if err != nil {
		log.Fatal(err)
	}
	task := agent.Task{URL: "https://example.org", Instruction: "Find the contact email"}
	s := c.Begin(cache.Key{Task: task.Instruction, URL: task.URL}, task.URL, nil)
	tw, err := s.Trace(task, trace.ModelInfo{Name: "llama3.1"})
	if err != nil {
		log.Fatal(err)
	}
	a, err := agent.New(b, model, append(s.Options(), agent.WithTracer(tw))...)
	if err != nil {
		log.Fatal(err)
	}
	res := a.Run(ctx, task)
	if err := tw.End(ctx, res); err != nil {
		log.Fatal(err)
	}
	if _, err := s.Finish(res, tw.Dir()); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d steps from the cache, %d model calls\n", res.Code, res.Replay.Steps, res.Replay.ModelCalls)
}
