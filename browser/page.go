package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/webagent/webagent/agent"
)

var (
	_ agent.Evaluator     = (*Browser)(nil)
	_ agent.Screenshotter = (*Browser)(nil)
)

// Eval evaluates a JavaScript expression in the current page's main frame
// and returns its value decoded from JSON (nil, bool, float64, string,
// []any, map[string]any). A promise is awaited. An exception thrown by the
// expression is an error carrying its text. Like Do, Eval waits for a
// navigation in progress to commit, and returns promptly when ctx ends.
func (b *Browser) Eval(ctx context.Context, expr string) (any, error) {
	o, err := b.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer o.end()
	v, err := b.evalAny(o, expr)
	return v, o.fail("eval", err)
}

func (b *Browser) evalAny(o *op, expr string) (any, error) {
	if _, err := b.nav.wait(o.ctx, 0, func(s navState) bool { return s.pending == "" }); err != nil {
		o.stopLoading = true
		return nil, err
	}
	r, err := b.eval(o, runtime.EvaluateParams{Expression: expr, ReturnByValue: new(true), AwaitPromise: new(true)})
	if err != nil {
		var ee *chromedp.ExceptionError
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("browser: eval: %s", exceptionText(ee.ExceptionDetails))
		}
		return nil, err
	}
	if r == nil || len(r.Value) == 0 {
		// undefined, or a value that has no JSON form (a function, a DOM
		// node).
		return nil, nil
	}
	var v any
	if err := json.Unmarshal(r.Value, &v); err != nil {
		return nil, fmt.Errorf("browser: eval: decoding the result: %w", err)
	}
	return v, nil
}

// exceptionText is the message of a thrown exception: "Error: boom" rather
// than just "Uncaught".
func exceptionText(d *runtime.ExceptionDetails) string {
	if d == nil {
		return "exception"
	}
	if d.Exception != nil && d.Exception.Description != "" {
		return d.Exception.Description
	}
	if d.Exception != nil && len(d.Exception.Value) > 0 {
		return d.Text + " " + string(d.Exception.Value)
	}
	return d.Text
}

// Screenshot captures the viewport of the current page as a PNG.
func (b *Browser) Screenshot(ctx context.Context) ([]byte, error) {
	o, err := b.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer o.end()
	if _, err := b.nav.wait(o.ctx, 0, func(s navState) bool { return s.pending == "" }); err != nil {
		o.stopLoading = true
		return nil, o.fail("screenshot", err)
	}
	res, err := cdp.Call(o.ctx, b.target, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng})
	if err != nil {
		return nil, o.fail("screenshot", err)
	}
	return res.Data, nil
}

// jsonArgs encodes the arguments of a function call in the page.
func jsonArgs(args ...any) ([]*runtime.CallArgument, error) {
	out := make([]*runtime.CallArgument, 0, len(args))
	for _, a := range args {
		raw, err := json.Marshal(a)
		if err != nil {
			return nil, err
		}
		out = append(out, &runtime.CallArgument{Value: raw})
	}
	return out, nil
}

// callObjIn calls the JavaScript function fn with this bound to the object id
// and returns its result as a remote object of the op's object group (an
// element handle, or one without an ObjectID for null and primitives), in
// the target of the frame fr (the page's for nil).
func (b *Browser) callObjIn(o *op, fr *oopif, id runtime.RemoteObjectID, fn string, args ...*runtime.CallArgument) (*runtime.RemoteObject, error) {
	p := runtime.CallFunctionOnParams{
		FunctionDeclaration: fn,
		ObjectID:            id,
		Arguments:           args,
		Silent:              new(true),
		AwaitPromise:        new(true),
		ObjectGroup:         o.objectGroup(),
	}
	o.evaluating = true
	r, err := cdp.Call(o.ctx, b.targetOf(fr), runtime.CallFunctionOn, p)
	if err != nil {
		return nil, err
	}
	o.evaluating = false
	if r.ExceptionDetails != nil {
		return nil, &chromedp.ExceptionError{ExceptionDetails: r.ExceptionDetails}
	}
	return r.Result, nil
}

// callEl is callOn for an element, in the target of its frame.
func (b *Browser) callEl(o *op, el element, fn string, v any, args ...any) error {
	if el.frame == nil {
		return b.callOn(o, el.id, fn, v, args...)
	}
	return b.callIn(o, el.frame, el.id, fn, v, args...)
}

// childEl calls fn on el and returns the element it returns, in the same
// frame and with el's description; ok is false when it returns null.
func (b *Browser) childEl(o *op, el element, fn string, args ...any) (child element, ok bool, err error) {
	raw, err := jsonArgs(args...)
	if err != nil {
		return element{}, false, err
	}
	r, err := b.callObjIn(o, el.frame, el.id, fn, raw...)
	if err != nil || r.ObjectID == "" {
		return element{}, false, err
	}
	return element{ref: el.ref, id: r.ObjectID, desc: el.desc, frame: el.frame}, true, nil
}
