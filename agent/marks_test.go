package agent_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/internal/outline"
	"github.com/webagent/webagent/modelserver"
)

// TestVisionMarks: with vision marks every observation carries a marked
// screenshot, shown once, and a model that answers in UI-TARS text at the
// button's centre clicks it (the server sees the click).
func TestVisionMarks(t *testing.T) {
	t.Parallel()
	var ordered atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/order" {
			ordered.Add(1)
			fmt.Fprint(w, "<title>Ordered</title><p>Thank you</p>")
			return
		}
		fmt.Fprint(w, `<title>Shop</title><body style="margin:0"><form action="/order" method="post">`+
			`<button style="position:absolute;left:200px;top:150px;width:100px;height:40px">Order</button></form></body>`)
	}))
	t.Cleanup(srv.Close)
	model, ms := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		last := req.Messages[len(req.Messages)-1]
		if strings.Contains(last.Content, "Thank you") {
			return modelserver.Turn{Text: "Thought: it is ordered.\nAction: finished(content='ordered')"}
		}
		return modelserver.Turn{Text: "Thought: the Order button.\nAction: click(start_box='(250,170)')"}
	}))
	res := mustAgent(t, tab(t), model, agent.WithVisionMarks(true)).Run(context.Background(), agent.Task{URL: srv.URL, Instruction: "order"})
	if res.Code != agent.CodeSuccess || res.Answer != "ordered" {
		t.Fatalf("got %s %q: %s", res.Code, res.Answer, res.Message)
	}
	if ordered.Load() != 1 {
		t.Fatalf("the server saw %d orders, want 1", ordered.Load())
	}
	reqs := ms.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	for i, r := range reqs {
		images := 0
		for _, m := range r.Req.Messages {
			images += m.Images
		}
		last := r.Req.Messages[len(r.Req.Messages)-1]
		if images != 1 || last.Images != 1 {
			t.Errorf("request %d: %d images, the observation %d; want the observation's one", i, images, last.Images)
		}
	}
}

// TestVisionMarksInView: under vision marks each observation says where a
// click reaches each ref on the screen, and a model that answers in
// UI-TARS text at those points fills a field (typing without a ref, where
// the focus is) and submits the form: the server sees the text.
func TestVisionMarksInView(t *testing.T) {
	t.Parallel()
	var got atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/send" {
			got.Store(r.FormValue("q"))
			fmt.Fprint(w, "<title>Sent</title><p>Thank you</p>")
			return
		}
		fmt.Fprint(w, `<title>Form</title><body style="margin:0"><form action="/send"><label>Query <input name=q style="position:absolute;left:300px;top:200px"></label>`+
			`<button style="position:absolute;left:300px;top:300px;width:100px;height:40px">Send</button></form></body>`)
	}))
	t.Cleanup(srv.Close)
	model, _ := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		last := req.Messages[len(req.Messages)-1].Content
		if strings.Contains(last, "Thank you") {
			return modelserver.Turn{Text: "Action: finished(content='sent')"}
		}
		_, spots := outline.CutInView(last)
		q, ok1 := modelserver.FindRef(last, "textbox", "Query")
		send, ok2 := modelserver.FindRef(last, "button", "Send")
		if spots == nil || !ok1 || !ok2 {
			return modelserver.Turn{Text: "Action: call_user()"}
		}
		at := func(ref string) string { return fmt.Sprintf("click(start_box='(%d,%d)')", spots[ref].X, spots[ref].Y) }
		return modelserver.Turn{Text: "Action: " + at(q) + "\nAction: type(content='blue mug')\nAction: " + at(send)}
	}))
	res := mustAgent(t, tab(t), model, agent.WithVisionMarks(true)).Run(context.Background(), agent.Task{URL: srv.URL, Instruction: "send blue mug"})
	if res.Code != agent.CodeSuccess || res.Answer != "sent" {
		t.Fatalf("got %s %q: %s", res.Code, res.Answer, res.Message)
	}
	if got.Load() != "blue mug" {
		t.Fatalf("the server got %v, want the typed text", got.Load())
	}
}
