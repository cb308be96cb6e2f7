package liveview_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/coder/websocket"

	"github.com/webagent/webagent/liveview"
)

// A View answers the agent's questions in its page: here the page is a Go
// client of the View's socket, with the control URL, as the page served at
// that URL is. In a program, the View is agent.WithHuman's person
// (agent.WithHuman(v, timeout)), and the URL goes to a person.
func ExampleServer_Open() {
	srv, err := liveview.Start(liveview.Config{}) // loopback, a free port
	if err != nil {
		panic(err)
	}
	defer srv.Close(context.Background())
	v := srv.Open(liveview.Options{Title: "my run", Idle: time.Minute})
	_, control := v.URLs()

	answered := make(chan string)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		a, err := v.Ask(ctx, "Which colour of mug?") // what ask_human does
		if err != nil {
			a = err.Error()
		}
		answered <- a
	}()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	socket := strings.Replace(strings.Replace(control, "http://", "ws://", 1), "?t=", "/ws?t=", 1)
	c, _, err := websocket.Dial(ctx, socket, nil)
	if err != nil {
		panic(err)
	}
	defer c.CloseNow()
	for {
		_, b, err := c.Read(ctx)
		if err != nil {
			panic(err)
		}
		var m struct {
			Type string
			Data struct {
				ID   int
				Text string
			}
		}
		if json.Unmarshal(b, &m) != nil || m.Type != "question" {
			continue
		}
		fmt.Println("asked:", m.Data.Text)
		reply, _ := json.Marshal(map[string]any{"type": "answer", "id": m.Data.ID, "text": "blue"})
		if err := c.Write(ctx, websocket.MessageText, reply); err != nil {
			panic(err)
		}
		break
	}
	fmt.Println("answer:", <-answered)
	// Output:
	// asked: Which colour of mug?
	// answer: blue
}
