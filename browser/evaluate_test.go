package browser

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestEval(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	open(t, shared, servePage(t, `<title>Eval</title><p id=p>hello</p>`))
	v, err := shared.Eval(tctx(t), "({text: document.getElementById('p').textContent, n: 2, list: [true, null]})")
	if err != nil {
		t.Fatal(err)
	}
	m, ok := v.(map[string]any)
	if !ok || m["text"] != "hello" || m["n"] != 2.0 || len(m["list"].([]any)) != 2 {
		t.Errorf("value = %#v", v)
	}
	v, err = shared.Eval(tctx(t), "new Promise((r) => setTimeout(() => r('later'), 10))")
	if err != nil || v != "later" {
		t.Errorf("promise: %v, %v", v, err)
	}
	if v, err := shared.Eval(tctx(t), "undefined"); err != nil || v != nil {
		t.Errorf("undefined: %v, %v", v, err)
	}
	_, err = shared.Eval(tctx(t), "(() => { throw new Error('boom here') })()")
	if err == nil || !strings.Contains(err.Error(), "boom here") || isActionError(err) {
		t.Errorf("exception: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = shared.Eval(ctx, "new Promise(() => {})")
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > time.Second {
		t.Errorf("never-settling promise: %v after %v", err, time.Since(start))
	}
	if v, err := shared.Eval(tctx(t), "1 + 1"); err != nil || v != 2.0 {
		t.Errorf("after a deadline: %v, %v", v, err)
	}
}
