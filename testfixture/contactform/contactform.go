// Package contactform is a fixture for the tests of open-web evals and
// read-only runs: a live site in a dataset's shape (a contact form that
// posts, noting every request that reaches it), the scripted agent that
// fills and sends it, and a scripted WebJudge.
package contactform

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/webagent/webagent/modelserver"
)

// Site is the contact form, served on loopback.
type Site struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string
}

// Start serves the site until the test ends.
func Start(t testing.TB) *Site {
	t.Helper()
	s := &Site{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/favicon.ico" {
			http.NotFound(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.seen = append(s.seen, strings.TrimSpace(r.Method+" "+r.URL.Path+" "+string(body)))
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.Method == http.MethodPost {
			fmt.Fprint(w, "<!doctype html><title>Sent</title><p>thank you</p>")
			return
		}
		fmt.Fprint(w, `<!doctype html><title>Contact</title><h1>Contact us</h1>
<form method="post" action="/send"><label>Message <input name="message"></label><button>Send</button></form>`)
	}))
	t.Cleanup(s.Close)
	return s
}

// Writes are the requests other than GET that reached the site: "POST
// /send message=hello".
func (s *Site) Writes() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var w []string
	for _, r := range s.seen {
		if !strings.HasPrefix(r, "GET ") {
			w = append(w, r)
		}
	}
	return w
}

// Agent types text (a word, or a secret's placeholder) into the form,
// sends it, and calls done once the page thanked it or the send was
// blocked by --read-only. Every reply reports usage.
func Agent(text string, usage modelserver.Usage) modelserver.Responder {
	return modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		u := usage
		call := func(name string, args map[string]any) modelserver.Turn {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall(name, args)}, Usage: &u}
		}
		obs := req.LastUser()
		if strings.Contains(req.LastTool(), "blocked by --read-only") || strings.Contains(obs, "thank you") {
			return call("done", map[string]any{"answer": "I sent the message."})
		}
		if ref, ok := modelserver.FindRef(obs, "textbox", "Message"); ok && !strings.Contains(obs, `value="`) {
			return call("type", map[string]any{"ref": ref, "text": text})
		}
		if ref, ok := modelserver.FindRef(obs, "button", "Send"); ok {
			return call("click", map[string]any{"ref": ref})
		}
		return call("fail", map[string]any{"reason": "no form"})
	})
}

// Judge is a scripted WebJudge: a task whose verdict request holds success
// (e.g. "Task: Say hello") is a success, any other a failure; with stall
// it never answers the verdict.
func Judge(success string, stall bool) modelserver.Responder {
	return modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		sys, user := req.Messages[0].Content, req.LastUser()
		switch {
		case strings.Contains(sys, "list its key points"):
			return modelserver.Turn{Text: "Key Points:\n1. Open the contact form\n2. Send the message"}
		case strings.Contains(sys, "one step of a web agent's work"):
			return modelserver.Turn{Text: "Reasoning: the form is filled.\nScore: 4"}
		case stall:
			return modelserver.Turn{Fault: modelserver.NoHeaders}
		case strings.Contains(user, success):
			return modelserver.Turn{Text: "Thoughts: the form would have sent message=hello.\nStatus: success"}
		}
		return modelserver.Turn{Text: "Thoughts: the reply asked for was not sent.\nStatus: failure"}
	})
}
