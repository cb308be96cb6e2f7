package launcher_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/webagent/webagent/browser/launcher"
)

// Start a headless Chromium, read its DevTools address, and stop it with
// everything it left behind.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := launcher.Start(ctx, launcher.Config{Flags: launcher.BrowserFlags(true)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.HasPrefix(p.URL, "ws://127.0.0.1:"))
	if err := p.Close(); err != nil {
		fmt.Println(err)
	}
	fmt.Println(p.Alive(), len(launcher.ProcessesUsing(p.Profile)))
	// Output:
	// true
	// false 0
}
