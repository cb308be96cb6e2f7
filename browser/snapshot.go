package browser

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/webagent/webagent/agent"
)

// snapshotJS is the page walker: a function of (floor, maxChars).
//
//go:embed snapshot.js
var snapshotJS string

// snapshotMaxChars caps the outline, so that a huge page cannot flood the
// model's context.
const snapshotMaxChars = 40000

// Snapshot describes the current page. If a navigation is in progress it
// first waits, as long as ctx allows, for the new document to be ready, and
// briefly for its load event.
//
// The Text is an outline of the rendered page, indented by two spaces per
// level. An element the model can act on has a line
//
//	<role> "<name>"<states> [ref=<id>]
//
// where the role is the element's ARIA role, explicit or implicit (link,
// button, textbox, searchbox, checkbox, radio, combobox, listbox, slider,
// spinbutton, tab, menuitem, option, …), or clickable for an element that
// only a click handler or a pointer cursor marks as actionable; the name is
// its accessible name, JSON-quoted; and the states are among value="…",
// checked, mixed, selected, pressed, expanded, collapsed, focused, disabled,
// readonly and required. Other lines are headings (heading "Title"
// [level=2]), text, list items ("- text"), table rows ("| a | b |", with
// their controls indented under them), the options of a select
// (option "France" selected), images with a text alternative (img "Logo"),
// open dialogs (dialog "Name") and iframes (iframe "Title") with their
// content indented under them. Elements that are not rendered (display:
// none, visibility: hidden, no size, aria-hidden) are left out. The outline
// is cut after 40,000 characters.
func (b *Browser) Snapshot(ctx context.Context) (agent.Snapshot, error) {
	o, err := b.begin(ctx)
	if err != nil {
		return agent.Snapshot{}, err
	}
	defer o.end()
	snap, err := b.snapshot(o)
	return snap, o.fail("snapshot", err)
}

func (b *Browser) snapshot(o *op) (agent.Snapshot, error) {
	if err := b.nav.settle(o.ctx); err != nil {
		o.stopLoading = true
		return agent.Snapshot{}, err
	}
	var res struct {
		URL    string `json:"url"`
		Title  string `json:"title"`
		Text   string `json:"text"`
		MaxRef int    `json:"maxRef"`
	}
	expr := fmt.Sprintf("(%s)(%d, %d)", snapshotJS, b.maxRef, snapshotMaxChars)
	t0 := time.Now()
	if err := b.evalValue(o, expr, &res); err != nil {
		return agent.Snapshot{}, err
	}
	b.maxRef = max(b.maxRef, res.MaxRef)
	b.log.Debug().Dur("took", time.Since(t0)).Int("chars", len(res.Text)).Str("url", res.URL).Msg("snapshot")
	return agent.Snapshot{
		URL:     res.URL,
		Title:   res.Title,
		Text:    res.Text,
		Notices: b.notices.take(),
	}, nil
}

// evalValue evaluates expr in the page's main frame and decodes its value
// (JSON-serializable) into v.
func (b *Browser) evalValue(o *op, expr string, v any) error {
	r, err := b.eval(o, runtime.EvaluateParams{Expression: expr, ReturnByValue: new(true)})
	if err != nil {
		return err
	}
	return decodeValue(r, v)
}

// eval runs Runtime.evaluate for the op. A script still running when the
// op's context ends is terminated before the next call.
func (b *Browser) eval(o *op, p runtime.EvaluateParams) (*runtime.RemoteObject, error) {
	p.Silent = new(true)
	o.evaluating = true
	r, err := cdp.Call(o.ctx, b.target, runtime.Evaluate, p)
	if err != nil {
		return nil, err
	}
	o.evaluating = false
	if r.ExceptionDetails != nil {
		return nil, &chromedp.ExceptionError{ExceptionDetails: r.ExceptionDetails}
	}
	return r.Result, nil
}

// callOn calls the JavaScript function fn with this bound to the object id
// and the JSON-encodable args, and decodes its value into v (if not nil).
func (b *Browser) callOn(o *op, id runtime.RemoteObjectID, fn string, v any, args ...any) error {
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
	o.evaluating = true
	r, err := cdp.Call(o.ctx, b.target, runtime.CallFunctionOn, p)
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

func decodeValue(r *runtime.RemoteObject, v any) error {
	if r == nil || len(r.Value) == 0 {
		return fmt.Errorf("the script returned no value (%s)", r.Type)
	}
	if err := json.Unmarshal(r.Value, v); err != nil {
		return fmt.Errorf("decoding the script's result: %w", err)
	}
	return nil
}
