package telemetry_test

import (
	"context"
	"fmt"

	"github.com/webagent/webagent/telemetry"
)

// Without an endpoint (here, none given and none in the environment),
// Setup starts nothing; the shutdown it returns does nothing.
func Example() {
	ctx := context.Background()
	cfg := telemetry.Config{Service: "my-agent"}
	shutdown, err := telemetry.Setup(ctx, cfg)
	if err != nil {
		panic(err)
	}
	defer shutdown(ctx)
	fmt.Println(cfg.Enabled(), telemetry.Content())
	// Output: false false
}
