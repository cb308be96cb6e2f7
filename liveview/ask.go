package liveview

import (
	"context"
	"errors"
	"strings"

	"github.com/webagent/webagent/agent"
)

// Questions answered in the page: the model's ask_human and the action
// policy's confirmations wait here, each until a controlling viewer
// answers or the loop's bound (the human timeout) ends its ctx. A question
// asked before anyone opens the page is shown to whoever opens it.

// pending is a question waiting for its answer.
type pending struct {
	msg    []byte
	answer chan answer // buffered 1
}

type answer struct {
	text string
	yes  bool
}

var errClosed = errors.New("liveview: the view was closed")

// errNoBrowser: the View has no browser to send input to.
var errNoBrowser = errors.New("liveview: no browser to send input to")

// Ask implements agent.Human.
func (v *View) Ask(ctx context.Context, question string) (string, error) {
	a, err := v.question(ctx, map[string]any{"kind": "ask", "text": question})
	return a.text, err
}

// Confirm implements agent.Confirmer: the page shows the action and its
// Yes and No.
func (v *View) Confirm(ctx context.Context, c agent.Confirmation) (bool, error) {
	body := map[string]any{"kind": "confirm", "text": c.Question, "tool": c.Tool, "target": c.Target, "url": c.URL, "rule": c.Rule}
	if c.Form != nil {
		body["form"] = c.Form
	}
	a, err := v.question(ctx, body)
	return a.yes, err
}

func (v *View) question(ctx context.Context, body map[string]any) (answer, error) {
	v.mu.Lock()
	if v.closed {
		v.mu.Unlock()
		return answer{}, errClosed
	}
	v.qseq++
	id := v.qseq
	body["id"] = id
	q := &pending{msg: message("question", body), answer: make(chan answer, 1)}
	v.questions[id] = q
	v.mu.Unlock()
	v.broadcast(q.msg)
	defer func() {
		v.mu.Lock()
		delete(v.questions, id)
		v.mu.Unlock()
		v.broadcast(message("answered", map[string]any{"id": id}))
	}()
	select {
	case a := <-q.answer:
		return a, nil
	case <-ctx.Done():
		return answer{}, ctx.Err()
	case <-v.done:
		return answer{}, errClosed
	}
}

// answer delivers a controlling viewer's answer to question id.
func (v *View) answer(id int, text string, yes bool) error {
	v.mu.Lock()
	q := v.questions[id]
	v.mu.Unlock()
	if q == nil {
		return errors.New("that question is no longer open")
	}
	select {
	case q.answer <- answer{text: strings.TrimSpace(text), yes: yes}:
		return nil
	default:
		return errors.New("that question was already answered")
	}
}
