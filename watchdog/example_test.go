package watchdog_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/webagent/webagent/watchdog"
)

func ExampleRun() {
	// The work ignores its context; the watchdog still returns on time.
	block := make(chan struct{})
	defer close(block)
	_, err := watchdog.Run(context.Background(), "iteration 1", 10*time.Millisecond, func(context.Context) (string, error) {
		<-block
		return "too late", nil
	})
	var te *watchdog.TimeoutError
	fmt.Println(errors.As(err, &te), te.Budget, err)
	// Output: true 10ms iteration 1 timed out after 10ms
}
