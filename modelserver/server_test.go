package modelserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// post sends a chat request with a plain HTTP client and returns the
// response (body unread).
func post(t *testing.T, ctx context.Context, hc *http.Client, srv *Server, body string, header ...string) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.BaseURL()+"/chat/completions", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return hc.Do(req)
}

func newHTTPClient(t *testing.T) *http.Client {
	hc := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(hc.CloseIdleConnections)
	return hc
}

func start(t *testing.T, r Responder, opts ...Option) *Server {
	t.Helper()
	srv, err := Start(r, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

const streamBody = `{"model":"m1","stream":true,"stream_options":{"include_usage":true},
 "messages":[{"role":"system","content":"be brief"},{"role":"user","content":"sign in"},
  {"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"click","arguments":"{\"ref\":\"e1\"}"}}]},
  {"role":"tool","tool_call_id":"c1","content":"clicked"}],
 "tools":[{"type":"function","function":{"name":"click","description":"Click","parameters":{"type":"object"}}}]}`

// events splits an SSE body into its data payloads, checking the framing.
func events(t *testing.T, body []byte) []string {
	t.Helper()
	var out []string
	for _, ev := range strings.Split(strings.TrimSuffix(string(body), "\n\n"), "\n\n") {
		if !strings.HasPrefix(ev, "data: ") || strings.Contains(ev, "\n") {
			t.Fatalf("bad SSE event %q", ev)
		}
		out = append(out, strings.TrimPrefix(ev, "data: "))
	}
	return out
}

func TestStreamFormat(t *testing.T) {
	srv := start(t, Script(Turn{
		Text:       "héllo wörld, ok",
		ToolCalls:  []Call{ToolCall("click", map[string]string{"ref": "e12"}), {Name: "type", Args: `{"ref":"e7","text":"hi"}`}},
		Interleave: true,
	}))
	resp, err := post(t, context.Background(), newHTTPClient(t), srv, streamBody, "Authorization", "Bearer k")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type = %q", ct)
	}
	evs := events(t, body)
	if evs[len(evs)-1] != "[DONE]" {
		t.Fatalf("last event = %q, want [DONE]", evs[len(evs)-1])
	}
	var (
		text      strings.Builder
		args      = map[int]string{}
		names     = map[int]string{}
		ids       = map[int]string{}
		argChunks = map[int]int{}
		order     []int
		finish    string
		gotUsage  *usage
		roleFirst bool
		usageLast bool
	)
	for i, ev := range evs[:len(evs)-1] {
		var c struct {
			Object  string `json:"object"`
			Model   string `json:"model"`
			Choices []struct {
				Delta struct {
					Role      string  `json:"role"`
					Content   *string `json:"content"`
					ToolCalls []struct {
						Index    *int   `json:"index"`
						ID       string `json:"id"`
						Type     string `json:"type"`
						Function struct {
							Name      string `json:"name"`
							Arguments string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
			Usage *usage `json:"usage"`
		}
		if err := json.Unmarshal([]byte(ev), &c); err != nil {
			t.Fatalf("event %d %q: %v", i, ev, err)
		}
		if c.Object != "chat.completion.chunk" || c.Model != "m1" {
			t.Errorf("event %d: object %q model %q", i, c.Object, c.Model)
		}
		if c.Usage != nil {
			gotUsage = c.Usage
			usageLast = i == len(evs)-2 && len(c.Choices) == 0 && strings.Contains(ev, `"choices":[]`)
			continue
		}
		d := c.Choices[0].Delta
		if i == 0 {
			roleFirst = d.Role == "assistant"
		}
		if d.Content != nil {
			if len(*d.Content) > 8 {
				t.Errorf("text piece %q longer than 8 bytes", *d.Content)
			}
			text.WriteString(*d.Content)
		}
		for _, tc := range d.ToolCalls {
			if tc.Index == nil {
				t.Fatalf("tool call fragment without index: %s", ev)
			}
			k := *tc.Index
			if tc.ID != "" {
				ids[k], names[k] = tc.ID, tc.Function.Name
				if tc.Type != "function" {
					t.Errorf("type = %q", tc.Type)
				}
			}
			if tc.Function.Arguments != "" {
				argChunks[k]++
				order = append(order, k)
			}
			args[k] += tc.Function.Arguments
		}
		if c.Choices[0].FinishReason != nil {
			finish = *c.Choices[0].FinishReason
		}
	}
	if !roleFirst {
		t.Error("first chunk does not carry role assistant")
	}
	if got := text.String(); got != "héllo wörld, ok" {
		t.Errorf("text = %q", got)
	}
	if names[0] != "click" || args[0] != `{"ref":"e12"}` || names[1] != "type" || args[1] != `{"ref":"e7","text":"hi"}` {
		t.Errorf("calls: names %v args %v", names, args)
	}
	if ids[0] == "" || ids[0] == ids[1] {
		t.Errorf("ids = %v", ids)
	}
	if argChunks[0] < 2 || argChunks[1] < 2 {
		t.Errorf("arguments not split: %v", argChunks)
	}
	if len(order) < 2 || order[0] != 0 || order[1] != 1 {
		t.Errorf("argument pieces not interleaved: %v", order)
	}
	if finish != "tool_calls" {
		t.Errorf("finish_reason = %q", finish)
	}
	if gotUsage == nil || !usageLast || gotUsage.PromptTokens == 0 || gotUsage.CompletionTokens == 0 ||
		gotUsage.TotalTokens != gotUsage.PromptTokens+gotUsage.CompletionTokens {
		t.Errorf("usage = %+v (last with empty choices: %v)", gotUsage, usageLast)
	}

	rec, err := srv.WaitRequest(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	<-rec.Gone
	if rec.ClientGone() {
		t.Error("ClientGone after a complete exchange")
	}
	if rec.GoneAt().IsZero() || rec.GoneAt().Before(rec.Start) {
		t.Errorf("GoneAt = %v, Start = %v", rec.GoneAt(), rec.Start)
	}
	r := rec.Req
	if r.Model != "m1" || !r.Stream || !r.IncludeUsage || len(r.Messages) != 4 || len(r.Tools) != 1 {
		t.Fatalf("recorded request = %+v", r)
	}
	if r.LastUser() != "sign in" || r.LastTool() != "clicked" || r.Messages[3].ToolCallID != "c1" {
		t.Errorf("LastUser %q LastTool %q", r.LastUser(), r.LastTool())
	}
	if c := r.Messages[2].ToolCalls; len(c) != 1 || c[0] != (MessageCall{ID: "c1", Name: "click", Arguments: `{"ref":"e1"}`}) {
		t.Errorf("assistant tool calls = %+v", c)
	}
	if r.Tools[0].Name != "click" || string(r.Tools[0].Parameters) != `{"type":"object"}` || r.ToolNames()[0] != "click" {
		t.Errorf("tools = %+v", r.Tools)
	}
	if rec.Header.Get("Authorization") != "Bearer k" {
		t.Errorf("header not recorded: %v", rec.Header)
	}
}

func TestStopWithoutUsage(t *testing.T) {
	srv := start(t, Script(Turn{Text: "done"}))
	resp, err := post(t, context.Background(), newHTTPClient(t), srv, `{"model":"m","stream":true,"messages":[]}`)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if bytes.Contains(body, []byte(`"usage"`)) {
		t.Error("usage sent without include_usage")
	}
	if !bytes.Contains(body, []byte(`"finish_reason":"stop"`)) {
		t.Errorf("no stop finish reason in %s", body)
	}
}

func TestNonStreaming(t *testing.T) {
	srv := start(t, Script(Turn{Text: "hi", ToolCalls: []Call{{Name: "back", Args: "{}"}}}))
	resp, err := post(t, context.Background(), newHTTPClient(t), srv, `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]}`)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var c struct {
		Object  string `json:"object"`
		Choices []struct {
			Message struct {
				Content   string `json:"content"`
				ToolCalls []struct {
					ID       string `json:"id"`
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage usage `json:"usage"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		t.Fatal(err)
	}
	m := c.Choices[0].Message
	if c.Object != "chat.completion" || m.Content != "hi" || len(m.ToolCalls) != 1 || m.ToolCalls[0].Function.Name != "back" ||
		m.ToolCalls[0].ID == "" || c.Choices[0].FinishReason != "tool_calls" || c.Usage.TotalTokens == 0 {
		t.Errorf("completion = %+v", c)
	}
	if got := srv.Requests()[0].Req.LastUser(); got != "ab" {
		t.Errorf("content parts decoded as %q", got)
	}
}

func TestErrorFaults(t *testing.T) {
	tests := []struct {
		turn       Turn
		status     int
		retryAfter string
		code       string
		msg        string
	}{
		{Turn{Fault: RateLimited, RetryAfter: 1500 * time.Millisecond}, 429, "2", "rate_limit_exceeded", "rate limit"},
		{Turn{Fault: RateLimited}, 429, "", "rate_limit_exceeded", "rate limit"},
		{Turn{Fault: ServerError}, 500, "", "", "injected server error"},
		{Turn{Fault: ServerError, Status: 503, Text: "overloaded"}, 503, "", "", "overloaded"},
		{Turn{Fault: Unauthorized}, 401, "", "invalid_api_key", "invalid api key"},
		{Turn{Fault: Unauthorized, Status: 403}, 403, "", "invalid_api_key", "invalid api key"},
		{Turn{Status: 400, Text: "bad tools"}, 400, "", "", "bad tools"},
	}
	for _, tt := range tests {
		t.Run(tt.turn.Fault.String(), func(t *testing.T) {
			srv := start(t, Script(tt.turn))
			resp, err := post(t, context.Background(), newHTTPClient(t), srv, `{"model":"m","stream":true,"messages":[]}`)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body struct {
				Error struct {
					Message string  `json:"message"`
					Code    *string `json:"code"`
				} `json:"error"`
			}
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatal(err)
			}
			code := ""
			if body.Error.Code != nil {
				code = *body.Error.Code
			}
			if resp.StatusCode != tt.status || resp.Header.Get("Retry-After") != tt.retryAfter || code != tt.code ||
				!strings.Contains(body.Error.Message, tt.msg) {
				t.Errorf("got %d Retry-After %q code %q message %q", resp.StatusCode, resp.Header.Get("Retry-After"), code, body.Error.Message)
			}
		})
	}
}

func TestScriptRunsOut(t *testing.T) {
	srv := start(t, Script(Turn{Text: "one"}))
	hc := newHTTPClient(t)
	for i, want := range []int{200, 500, 500} {
		resp, err := post(t, context.Background(), hc, srv, `{"model":"m","messages":[]}`)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want || (want == 500 && !strings.Contains(string(b), "script ran out")) {
			t.Errorf("request %d: %d %s", i, resp.StatusCode, b)
		}
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("recorded %d requests", n)
	}
}

func TestAPIKeyAndModels(t *testing.T) {
	srv := start(t, Script(Turn{Text: "ok"}), WithAPIKey("sekret"))
	hc := newHTTPClient(t)
	get := func(auth string) int {
		req, _ := http.NewRequest(http.MethodGet, srv.BaseURL()+"/models", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	if s := get(""); s != 401 {
		t.Errorf("models without key: %d", s)
	}
	if s := get("Bearer sekret"); s != 200 {
		t.Errorf("models with key: %d", s)
	}
	resp, err := post(t, context.Background(), hc, srv, `{"model":"m","messages":[]}`, "Authorization", "Bearer wrong")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Errorf("chat with wrong key: %d", resp.StatusCode)
	}

	srv2 := start(t, Script(), WithoutModels())
	resp, err = hc.Get(srv2.BaseURL() + "/models")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("WithoutModels: %d", resp.StatusCode)
	}
}

func TestMalformedAndReset(t *testing.T) {
	srv := start(t, Script(Turn{Fault: Malformed}, Turn{Fault: Reset}))
	hc := newHTTPClient(t)
	resp, err := post(t, context.Background(), hc, srv, `{"model":"m","stream":true,"messages":[]}`)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), "data: {not json\n") {
		t.Errorf("malformed body = %q", b)
	}
	if _, err := post(t, context.Background(), hc, srv, `{"model":"m","stream":true,"messages":[]}`); err == nil {
		t.Error("Reset: request succeeded")
	}
}

// TestClientGone checks that every blocking fault notices a client that
// goes away.
func TestClientGone(t *testing.T) {
	for _, f := range []Fault{NoHeaders, StallMidStream, Drip} {
		t.Run(f.String(), func(t *testing.T) {
			srv := start(t, Script(Turn{Fault: f, Every: 20 * time.Millisecond}))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() {
				resp, err := post(t, ctx, newHTTPClient(t), srv, `{"model":"m","stream":true,"messages":[]}`)
				if err == nil {
					// read the first line of the body, if any, before giving up
					if f != NoHeaders {
						_, _ = bufio.NewReader(resp.Body).ReadString('\n')
					}
					_, err = io.ReadAll(resp.Body)
					resp.Body.Close()
				}
				done <- err
			}()
			wctx, wcancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer wcancel()
			rec, err := srv.WaitRequest(wctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			cancel()
			// The client's own cancel: net/http reports it as the context's
			// error, or, when it closed the connection under a read in
			// progress, as that closed connection.
			if err := <-done; !errors.Is(err, context.Canceled) && !errors.Is(err, net.ErrClosed) {
				t.Errorf("client error = %v", err)
			}
			select {
			case <-rec.Gone:
			case <-wctx.Done():
				t.Fatal("handler did not notice the client went away")
			}
			if !rec.ClientGone() {
				t.Error("ClientGone = false")
			}
		})
	}
}

// TestCloseUnblocks checks that Close ends stalled and dripping handlers.
func TestCloseUnblocks(t *testing.T) {
	for _, f := range []Fault{NoHeaders, StallMidStream, Drip} {
		t.Run(f.String(), func(t *testing.T) {
			srv, err := Start(Script(Turn{Fault: f, Delay: 0}))
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			hc := newHTTPClient(t)
			go func() {
				resp, err := post(t, context.Background(), hc, srv, `{"model":"m","stream":true,"messages":[]}`)
				if err == nil {
					_, err = io.ReadAll(resp.Body)
					resp.Body.Close()
				}
				done <- err
			}()
			wctx, wcancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer wcancel()
			rec, err := srv.WaitRequest(wctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			if err := srv.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("Close took %s", d)
			}
			select {
			case <-done: // an error or a cut body: either way the client is released
			case <-wctx.Done():
				t.Fatal("client still blocked after Close")
			}
			select {
			case <-rec.Gone:
			default:
				t.Error("Gone still open after Close")
			}
			if rec.ClientGone() {
				t.Error("ClientGone after the server closed")
			}
			if _, err := srv.WaitRequest(wctx, 1); err == nil {
				t.Error("WaitRequest on a closed server succeeded")
			}
		})
	}
}

func TestDelayEndsOnClientGone(t *testing.T) {
	srv := start(t, Script(Turn{Text: "late", Delay: time.Hour}))
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := post(t, ctx, newHTTPClient(t), srv, `{"model":"m","messages":[]}`); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v", err)
	}
	rec := srv.Requests()[0]
	wctx, wcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer wcancel()
	select {
	case <-rec.Gone:
	case <-wctx.Done():
		t.Fatal("delayed handler did not notice the client went away")
	}
}

func TestWaitRequestContext(t *testing.T) {
	srv := start(t, Script())
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := srv.WaitRequest(ctx, 0); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v", err)
	}
}

func TestBadRequestBody(t *testing.T) {
	srv := start(t, Script(Turn{Text: "x"}))
	resp, err := post(t, context.Background(), newHTTPClient(t), srv, `{"model":`)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 || string(srv.Requests()[0].Req.Raw) != `{"model":` {
		t.Errorf("status %d, recorded %+v", resp.StatusCode, srv.Requests()[0].Req)
	}
}

func TestSplit(t *testing.T) {
	got := split("aé€😀b", 2)
	if strings.Join(got, "") != "aé€😀b" {
		t.Fatalf("split lost bytes: %q", got)
	}
	for _, p := range got {
		if !utf8ValidString(p) {
			t.Errorf("piece %q cuts a character", p)
		}
	}
	if split("", 8) != nil {
		t.Error("split of empty string")
	}
}

func utf8ValidString(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

func TestToolCall(t *testing.T) {
	if c := ToolCall("click", map[string]string{"ref": "e1"}); c.Args != `{"ref":"e1"}` {
		t.Errorf("Args = %q", c.Args)
	}
	if c := ToolCall("click", `{"ref": `); c.Args != `{"ref": ` {
		t.Errorf("raw Args = %q", c.Args)
	}
	defer func() {
		if recover() == nil {
			t.Error("no panic for unmarshallable args")
		}
	}()
	ToolCall("x", func() {})
}

func TestFaultString(t *testing.T) {
	if StallMidStream.String() != "stall-mid-stream" || Fault(99).String() != "fault(99)" {
		t.Error(StallMidStream.String(), Fault(99).String())
	}
}

func TestKeepAlive(t *testing.T) {
	srv := start(t, Script(Turn{Text: "ok", KeepAlive: 3}))
	resp, err := post(t, context.Background(), newHTTPClient(t), srv, `{"model":"m","stream":true,"messages":[]}`)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.HasPrefix(string(b), ": keep-alive\n\n: keep-alive\n\n: keep-alive\n\ndata: {") {
		t.Errorf("body = %q", b)
	}
}
