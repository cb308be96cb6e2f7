package eval

import (
	"bytes"
	"strings"
	"testing"

	"github.com/webagent/webagent/eval/report"
)

func TestBar(t *testing.T) {
	t.Parallel()
	var plain bytes.Buffer
	b := NewBar(&plain, 2, false)
	b.Begin("shop/a")
	b.Done(report.Run{Suite: "shop", ID: "a", Success: true, Code: "SUCCESS", Iterations: 3, DurationMS: 1500})
	b.Begin("shop/b")
	b.Done(report.Run{Suite: "shop", ID: "b", Code: "CHECKS_FAILED", Message: "the cart\nis empty"})
	b.Finish()
	want := "[1/2] pass shop/a (SUCCESS, 3 iterations, 1.5s)\n[2/2] FAIL shop/b (CHECKS_FAILED, 0 iterations, 0.0s): the cart is empty\n"
	if plain.String() != want {
		t.Errorf("plain output:\n%q\nwant\n%q", plain.String(), want)
	}

	var tty bytes.Buffer
	b = NewBar(&tty, 2, true)
	b.Begin("shop/a")
	if !strings.Contains(tty.String(), "0/2") || !strings.Contains(tty.String(), "shop/a") {
		t.Errorf("tty bar: %q", tty.String())
	}
	b.Done(report.Run{Suite: "shop", ID: "a", Code: "AGENT_FAILED"})
	b.Finish()
	out := tty.String()
	if !strings.Contains(out, "\r\x1b[K") || !strings.Contains(out, "FAIL shop/a") || !strings.Contains(out, "1/2  1 failed") || !strings.HasSuffix(out, "\n") {
		t.Errorf("tty bar: %q", out)
	}
}
