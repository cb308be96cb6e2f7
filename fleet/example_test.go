package fleet_test

import (
	"context"
	"fmt"
	"log"

	"github.com/webagent/webagent/fleet"
)

// A task submitted to the fleet and its outcome: the same result as
// webagent run --json, with the attempts it took. The workers hold the
// model and the secret's value; the task only names the secret.
func ExampleClient_Submit() {
	ctx := context.Background()
	c, err := fleet.Dial(ctx, fleet.ConnectOptions{HostPort: "127.0.0.1:7233"})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	fc := &fleet.Client{C: c}
	id, err := fc.Submit(ctx, "", fleet.Task{
		URL:         "https://shop.example",
		Instruction: "Sign in with <secret>SHOP_PASS</secret> and tell me my last order",
		SecretNames: []string{"SHOP_PASS"},
		Fleet:       fleet.Settings{Restarts: 0}, // it has side effects: never twice
	})
	if err != nil {
		log.Fatal(err)
	}
	out, err := fc.Wait(ctx, id)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.Code, out.Answer, out.Attempts)
}

// A worker: its own model and secrets, two tasks at once, until ctx ends.
func ExampleWorker() {
	ctx := context.Background()
	c, err := fleet.Dial(ctx, fleet.ConnectOptions{HostPort: "127.0.0.1:7233"})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	w, err := fleet.NewWorker(c, fleet.WorkerConfig{
		Concurrency: 2,
		Secrets:     map[string]string{"SHOP_PASS": "from the machine's vault"},
		// Model: an llm.Client; without one, only built-in eval episodes.
	})
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(w.Run(ctx))
}
