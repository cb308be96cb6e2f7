package sites

import (
	"net/url"
	"strings"
	"testing"
)

func TestWebmailReadAndSearch(t *testing.T) {
	t.Parallel()
	m := NewWebmail()
	c := serve(t, m)
	_, body := c.get("/inbox")
	mustContain(t, "inbox", body, "Lunch on Thursday?", "Your flight to Lisbon", `<tr class="unread">`)
	if strings.Index(body, "Office move") > strings.Index(body, "Quarterly report draft") {
		t.Error("the inbox is not newest first")
	}
	_, body = c.get("/inbox?q=invoice")
	mustContain(t, "search", body, "1 messages match", "Invoice 4471 overdue")
	mustNotContain(t, "search", body, "Lunch on Thursday?")

	_, body = c.get("/messages/4")
	mustContain(t, "message", body, "QX7P2L", `href="/compose?reply=4"`, `href="/compose?forward=4"`)
	if !m.Inbox()[3].Read {
		t.Error("reading did not mark the message read")
	}
	if code, _ := c.get("/messages/99"); code != 404 {
		t.Errorf("unknown message: %d", code)
	}
}

func TestWebmailReplyForwardCompose(t *testing.T) {
	t.Parallel()
	m := NewWebmail()
	c := serve(t, m)
	_, body := c.get("/compose?reply=3")
	mustContain(t, "reply form", body, `value="tom.becker@acme.test"`, `value="Re: Lunch on Thursday?"`, `name="reply" value="3"`)

	code, _, body := c.post("/send", url.Values{"to": {"not-an-address"}, "subject": {""}, "body": {""}})
	if code != 422 {
		t.Errorf("invalid send: %d", code)
	}
	mustContain(t, "invalid send", body, "The message was not sent.", "is not an email address", "Add a subject.", "Write a message.")
	if len(m.Sent()) != 0 {
		t.Fatal("an invalid message was sent")
	}

	_, final, body := c.post("/send", url.Values{"to": {"tom.becker@acme.test"}, "subject": {"Re: Lunch on Thursday?"}, "body": {"Thursday works for me."}, "reply": {"3"}})
	if final != "/sent" {
		t.Errorf("send went to %s", final)
	}
	mustContain(t, "sent", body, "Your message was sent.", "Re: Lunch on Thursday?")

	_, body = c.get("/compose?forward=4")
	mustContain(t, "forward form", body, `value="Fwd: Your flight to Lisbon"`, "The original message will be included")
	c.post("/send", url.Values{"to": {"Alex@Acme.test, kim@acme.test"}, "subject": {"Fwd: Your flight to Lisbon"}, "body": {"FYI"}, "forward": {"4"}})
	c.post("/send", url.Values{"to": {"kim@acme.test"}, "subject": {"Hello"}, "body": {"Hi Kim"}})

	sent := m.Sent()
	if len(sent) != 3 {
		t.Fatalf("sent = %+v", sent)
	}
	if sent[0].InReplyTo != 3 || sent[0].To[0] != "tom.becker@acme.test" || sent[0].Body != "Thursday works for me." {
		t.Errorf("reply = %+v", sent[0])
	}
	if sent[1].ForwardedFrom != 4 || len(sent[1].To) != 2 || sent[1].To[0] != "alex@acme.test" || !strings.Contains(sent[1].Body, "QX7P2L") || !strings.HasPrefix(sent[1].Body, "FYI") {
		t.Errorf("forward = %+v", sent[1])
	}
	if sent[2].InReplyTo != 0 || sent[2].ForwardedFrom != 0 {
		t.Errorf("new message = %+v", sent[2])
	}
	_, body = c.get("/sent/2")
	mustContain(t, "sent message", body, "alex@acme.test, kim@acme.test")
}

func TestWebmailDelete(t *testing.T) {
	t.Parallel()
	m := NewWebmail()
	c := serve(t, m)
	_, _, body := c.post("/messages/6/delete", nil)
	mustContain(t, "after delete", body, "Deleted “Spring planting guide”.")
	mustNotContain(t, "after delete", body, `href="/messages/6"`)
	if d := m.State()["deleted"].([]any); len(d) != 1 || d[0] != 6.0 {
		t.Fatalf("deleted = %v", d)
	}
	m.Reset()
	if len(m.State()["deleted"].([]any)) != 0 {
		t.Fatal("Reset kept the deletion")
	}
}
