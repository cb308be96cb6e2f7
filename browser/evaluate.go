package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Calling JavaScript in the page: evaluations, calls on remote objects, in
// the page or in a cross-origin frame, and decoding their values.

// evalAny evaluates expr in the page's main frame, once a navigation in
// flight has committed, and decodes its value from JSON.
func (o *op) evalAny(expr string) (any, error) {
	b := o.b
	if _, err := b.nav.wait(o.ctx, 0, func(s navState) bool { return s.pending == "" }); err != nil {
		o.stopLoading = true
		return nil, err
	}
	r, err := o.evalMain(runtime.EvaluateParams{Expression: expr, ReturnByValue: new(true), AwaitPromise: new(true)})
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
func (o *op) callObjIn(fr *oopif, id runtime.RemoteObjectID, fn string, args ...*runtime.CallArgument) (*runtime.RemoteObject, error) {
	b := o.b
	p := runtime.CallFunctionOnParams{
		FunctionDeclaration: fn,
		ObjectID:            id,
		Arguments:           args,
		Silent:              new(true),
		AwaitPromise:        new(true),
		ObjectGroup:         o.objectGroup(),
	}
	return o.evaluate(func() (*runtime.RemoteObject, *runtime.ExceptionDetails, error) {
		r, err := cdp.Call(o.ctx, b.targetOf(fr), runtime.CallFunctionOn, p)
		if err != nil {
			return nil, nil, err
		}
		return r.Result, r.ExceptionDetails, nil
	})
}

// evaluate runs a call that evaluates JavaScript: the op counts as
// evaluating until it answers (an abandoned one leaves a script to
// terminate), and an exception the script threw is an error.
func (o *op) evaluate(call func() (*runtime.RemoteObject, *runtime.ExceptionDetails, error)) (*runtime.RemoteObject, error) {
	o.evaluating = true
	r, exc, err := call()
	if err != nil {
		return nil, err
	}
	o.evaluating = false
	if exc != nil {
		return nil, &chromedp.ExceptionError{ExceptionDetails: exc}
	}
	return r, nil
}

// callEl is callOn for an element, in the target of its frame.
func (o *op) callEl(el element, fn string, v any, args ...any) error {
	if el.frame == nil {
		return o.callOn(el.id, fn, v, args...)
	}
	return o.callIn(el.frame, el.id, fn, v, args...)
}

// childEl calls fn on el and returns the element it returns, in the same
// frame and with el's description; ok is false when it returns null.
func (o *op) childEl(el element, fn string, args ...any) (child element, ok bool, err error) {
	raw, err := jsonArgs(args...)
	if err != nil {
		return element{}, false, err
	}
	r, err := o.callObjIn(el.frame, el.id, fn, raw...)
	if err != nil || r.ObjectID == "" {
		return element{}, false, err
	}
	return element{ref: el.ref, id: r.ObjectID, desc: el.desc, frame: el.frame}, true, nil
}

// evalValue evaluates expr in the page's main frame and decodes its value
// (JSON-serializable) into v.
func (o *op) evalValue(expr string, v any) error {
	r, err := o.eval(runtime.EvaluateParams{Expression: expr, ReturnByValue: new(true)})
	if err != nil {
		return err
	}
	return decodeValue(r, v)
}

// eval runs Runtime.evaluate for the op, in webagent's isolated world of
// the page (world.go). A script still running when the op's context ends
// is terminated before the next call.
func (o *op) eval(p runtime.EvaluateParams) (*runtime.RemoteObject, error) {
	b := o.b
	p.Silent = new(true)
	return o.evaluate(func() (*runtime.RemoteObject, *runtime.ExceptionDetails, error) {
		r, err := b.evalWorld(o.ctx, b.target, p)
		if err != nil {
			return nil, nil, err
		}
		return r.Result, r.ExceptionDetails, nil
	})
}

// evalMain is eval in the page's own world: for the caller's expression
// (Browser.Eval) only.
func (o *op) evalMain(p runtime.EvaluateParams) (*runtime.RemoteObject, error) {
	b := o.b
	p.Silent = new(true)
	return o.evaluate(func() (*runtime.RemoteObject, *runtime.ExceptionDetails, error) {
		r, err := cdp.Call(o.ctx, b.target, runtime.Evaluate, p)
		if err != nil {
			return nil, nil, err
		}
		return r.Result, r.ExceptionDetails, nil
	})
}

// callOn calls the JavaScript function fn with this bound to the object id
// in the page, with the JSON-encodable args, and decodes its value into v
// (if not nil).
func (o *op) callOn(id runtime.RemoteObjectID, fn string, v any, args ...any) error {
	return o.callIn(nil, id, fn, v, args...)
}

// decodeValue decodes the value of a script's result into v.
func decodeValue(r *runtime.RemoteObject, v any) error {
	if r == nil || len(r.Value) == 0 {
		return fmt.Errorf("the script returned no value (%s)", r.Type)
	}
	if err := json.Unmarshal(r.Value, v); err != nil {
		return fmt.Errorf("decoding the script's result: %w", err)
	}
	return nil
}

// evalIn evaluates expr in webagent's world of fr's document (the page's
// for nil) and decodes its value into v.
func (o *op) evalIn(fr *oopif, expr string, v any) error {
	if fr == nil {
		return o.evalValue(expr, v)
	}
	r, err := o.b.evalWorld(o.ctx, fr.target, runtime.EvaluateParams{Expression: expr, ReturnByValue: new(true), Silent: new(true)})
	if err != nil {
		return err
	}
	if r.ExceptionDetails != nil {
		return &chromedp.ExceptionError{ExceptionDetails: r.ExceptionDetails}
	}
	return decodeValue(r.Result, v)
}

// callIn is callOn in the target of a frame (the page's for nil).
func (o *op) callIn(fr *oopif, id runtime.RemoteObjectID, fn string, v any, args ...any) error {
	b := o.b
	p := runtime.CallFunctionOnParams{
		FunctionDeclaration: fn,
		ObjectID:            id,
		Silent:              new(true),
		ReturnByValue:       new(true),
		AwaitPromise:        new(true),
	}
	for _, a := range args {
		raw, err := json.Marshal(a)
		if err != nil {
			return err
		}
		p.Arguments = append(p.Arguments, &runtime.CallArgument{Value: raw})
	}
	// A script in the page that outlives a cancelled call is terminated by
	// the clean-up before the next call (op.end).
	o.evaluating = fr == nil
	r, err := cdp.Call(o.ctx, b.targetOf(fr), runtime.CallFunctionOn, p)
	if err != nil {
		return err
	}
	o.evaluating = false
	if r.ExceptionDetails != nil {
		return &chromedp.ExceptionError{ExceptionDetails: r.ExceptionDetails}
	}
	if v == nil {
		return nil
	}
	return decodeValue(r.Result, v)
}

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
	v, err := o.evalAny(expr)
	return v, o.fail("eval", err)
}
