package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/policy"
)

// The vendors' own tool sets (WithNativeTools): the model is offered its
// vendor's computer tool (the client declares it from Request.Native) with
// a few of webagent's tools beside it (goto, back, forward, tabs,
// done, fail, ask_human), and each action it asks for runs as a call of
// the run: through the policy and its confirmations, the secrets'
// origins, the tool's budget and the backstop, spans and records, as the
// webagent tool that does the same (mouse, drag, scroll, type, press,
// wait). The actions of one call run in order and stop at the first that
// fails or navigates. The result is a short text and a screenshot of the
// viewport, whose CSS pixels are the display's: the display a request
// declares is the browser's viewport, so coordinates need no scaling.

// NativeBrowser is what native tools need of the browser beyond a
// contract.Browser: the viewport's size and a screenshot whose pixels are
// its CSS pixels, whole or a region scaled up (zoom). Package browser
// implements it.
type NativeBrowser interface {
	Viewport() (width, height int)
	ScreenshotCSS(ctx context.Context, region []float64, width, height int) ([]byte, error)
}

// WithNativeTools offers the model its vendor's tool of the kind in place
// of webagent's page tools: contract.NativeComputer (a computer tool:
// screenshots and coordinates) or contract.NativeBrowser (a browser tool:
// the page's outline and refs too); "" offers webagent's. The model client
// must declare it (packages llm/anthropic and llm/responses do, from
// Request.Native); the browser must implement NativeBrowser, and for a
// browser tool TabStater.
func WithNativeTools(kind string) Option { return func(c *config) { c.native = kind } }

// nativeTools are webagent's tools offered beside a vendor's computer
// tool: what a screen alone cannot do (open an address, the history, the
// tabs) and the loop's own.
var nativeTools = map[string][]string{
	contract.NativeComputer: {contract.ActGoto, contract.ActBack, contract.ActForward, contract.ActTabs, ToolDone, ToolFail, ToolAskHuman, ToolReadEmail},
	contract.NativeBrowser:  {ToolDone, ToolFail, ToolAskHuman, ToolReadEmail}, // it navigates and has tabs
}

// nativeShotBudget bounds the screenshot a native call returns.
const nativeShotBudget = 10 * time.Second

// useNative keeps of ts the tools offered beside the vendor's and declares
// the vendor's tool at the viewport's size.
func (ts *toolset) useNative(b NativeBrowser, kind string) {
	for name := range ts.byName {
		if !slices.Contains(nativeTools[kind], name) {
			ts.without(name)
		}
	}
	w, h := b.Viewport()
	ts.native = &contract.NativeTool{Kind: kind, Width: w, Height: h}
}

// nativeNote tells the model how its computer tool meets the page.
func nativeNote(t *contract.NativeTool) string {
	if t.Kind == contract.NativeBrowser {
		return fmt.Sprintf("\n- You act on the page with the browser tool: its refs are those of the page outline in each message "+
			"(read_page gives it again), its screenshots show the viewport, %dx%d pixels. Finish with done or fail. "+
			"Type a secret as <secret>NAME</secret>.", t.Width, t.Height)
	}
	return fmt.Sprintf("\n- You act on the page with the computer tool: its screenshots show the browser's viewport, %dx%d pixels, "+
		"and its coordinates are pixels of them. The page outline in each message names what is on the page "+
		"(its refs are not for the computer tool; its \"In view\" line gives the point where a click reaches each ref on the screen). "+
		"Open an address with goto; finish with done or fail. "+
		"Type a secret as <secret>NAME</secret> after clicking its field.", t.Width, t.Height)
}

// nativeRun is what a native call keeps between its actions.
type nativeRun struct {
	n      int
	calls  []ActionRecord
	cursor *contract.Point // where the pointer is, as far as the run moved it
	zoom   []byte          // a zoom's picture, returned in place of the screenshot
	shot   bool            // a screenshot was asked for
}

// executeNative runs a native call: its safety checks asked first, then
// its actions one by one until one fails or navigates, then a screenshot.
func (r *run) executeNative(ctx context.Context, tc contract.ToolCall, out *iterOut) (outcome, error) {
	if r.tools.native == nil {
		return outcome{text: fmt.Sprintf("error: %s is a vendor's tool, which this run does not offer; use the tools offered", tc.Name), failed: true}, nil
	}
	if len(tc.Native) == 0 {
		return r.withScreenshot(ctx, outcome{text: fmt.Sprintf("error: %s of the %s tool set is not carried out here; use the computer tool", tc.Name, tc.Toolset), failed: true}, nil), nil
	}
	acked, refused, err := r.safetyChecks(ctx, tc, out)
	if err != nil {
		return outcome{}, err
	}
	if refused != nil {
		o := r.withScreenshot(ctx, *refused, nil)
		o.browser = r.browserState(ctx)
		return o, nil
	}
	nr := &nativeRun{cursor: r.cursor.Load()}
	var texts []string
	res := outcome{acked: acked}
	for i, na := range tc.Native {
		o, err := r.nativeAction(ctx, tc, na, out, nr)
		if err != nil {
			return outcome{}, err
		}
		if len(tc.Native) > 1 {
			o.text = fmt.Sprintf("%d. %s", i+1, o.text)
		}
		texts = append(texts, o.text)
		if o.failed || o.navigated || o.terminal {
			res.failed, res.navigated, res.terminal, res.stale = o.failed, o.navigated, o.terminal, o.stale
			if rest := len(tc.Native) - i - 1; rest > 0 {
				why := "it failed"
				if !o.failed {
					why = "the page navigated"
				}
				texts = append(texts, fmt.Sprintf("the %d later action(s) of this call were not run: %s", rest, why))
			}
			break
		}
	}
	r.cursor.Store(nr.cursor)
	res.text, res.calls = strings.Join(texts, "\n"), nr.calls
	if res.terminal {
		return res, nil
	}
	// The tabs after the call: a browser tool reports them, and a
	// computer tool's result names the page's address (Gemini's sends it).
	res.browser = r.browserState(ctx)
	if r.tools.native.Kind == contract.NativeBrowser && !nr.shot && nr.zoom == nil {
		return res, nil // its screenshots are asked for
	}
	return r.withScreenshot(ctx, res, nr.zoom), nil
}

// withScreenshot adds the viewport's screenshot (or zoom's picture) to a
// native call's result; one that fails leaves the text, saying so.
func (r *run) withScreenshot(ctx context.Context, o outcome, zoom []byte) outcome {
	if zoom != nil {
		o.images = [][]byte{zoom}
		return o
	}
	nb := r.a.browser.(NativeBrowser)
	sctx, cancel := context.WithTimeout(ctx, nativeShotBudget)
	defer cancel()
	png, err := nb.ScreenshotCSS(sctx, nil, 0, 0)
	if err != nil {
		if ctx.Err() == nil {
			o.text += "\n(no screenshot: " + err.Error() + ")"
		}
		return o
	}
	o.images = [][]byte{png}
	return o
}

// safetyChecks asks a person about each of the call's safety checks, as
// the policy's confirm rules are asked. All allowed: they are returned,
// to be acknowledged. One not allowed: the call does not run, and the
// outcome says why.
func (r *run) safetyChecks(ctx context.Context, tc contract.ToolCall, out *iterOut) ([]contract.SafetyCheck, *outcome, error) {
	if len(tc.SafetyChecks) == 0 {
		return nil, nil, nil
	}
	for _, sc := range tc.SafetyChecks {
		pd := &PolicyDecision{Tool: tc.Name, Site: r.sec.Mask(policy.Host(out.url)), Rule: "the model's safety check " + sc.Code,
			Decision: string(policy.Confirm), Reason: r.sec.Mask(sc.Message)}
		if pd.Reason == "" {
			pd.Reason = sc.Code
		}
		pd.Target = nativeSummary(tc.Native)
		pd.Allowed, pd.Answer = r.confirm(ctx, pd, out.url)
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if !pd.Allowed {
			o := refusal(pd)
			o.policy = pd
			return nil, o, nil
		}
	}
	return tc.SafetyChecks, nil, nil
}

// nativeSummary names a call's actions for a person: "left_click at
// (120, 40), type".
func nativeSummary(acts []contract.NativeAction) string {
	var parts []string
	for _, a := range acts {
		s := cmpStr(a.Vendor, a.Kind)
		if a.At != nil {
			s += fmt.Sprintf(" at (%g, %g)", a.At.X, a.At.Y)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

func cmpStr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// nativeAction runs one action of a native call as a call of the run.
func (r *run) nativeAction(ctx context.Context, tc contract.ToolCall, na contract.NativeAction, out *iterOut, nr *nativeRun) (outcome, error) {
	name := cmpStr(na.Vendor, na.Kind)
	steps, local, err := r.nativeSteps(ctx, na, out, nr)
	if err != nil {
		var ae *contract.ActionError
		if errors.As(err, &ae) {
			o := outcome{text: "error: " + name + ": " + ae.Msg, failed: true}
			nr.record(name, na, o, 0, nil)
			return o, nil
		}
		return outcome{}, err
	}
	nr.shot = nr.shot || na.Kind == contract.NativeScreenshot
	if local != "" {
		sep := ": "
		if strings.Contains(local, "\n") {
			sep = ":\n" // an outline keeps its lines whole
		}
		o := outcome{text: name + sep + local}
		nr.record(name, na, o, 0, nil)
		return o, nil
	}
	var last outcome
	var texts []string
	for _, st := range steps {
		nr.n++
		sub := contract.ToolCall{ID: fmt.Sprintf("%s.%d", tc.ID, nr.n), Name: st.tool.name, Arguments: nativeArgs(na)}
		t0 := time.Now()
		ran := r.ranAs(ctx, st)
		tctx, span := r.startTool(ctx, sub)
		o, err := r.nativeStep(tctx, sub, st, out)
		r.endTool(span, o, err)
		if err != nil {
			return outcome{}, err
		}
		nr.record(name, na, o, time.Since(t0), ran)
		texts = append(texts, strings.TrimPrefix(o.text, "error: "))
		last = o
		if o.failed || o.navigated || o.terminal {
			break
		}
	}
	if na.At != nil && !last.failed {
		p := *na.At
		nr.cursor = &p
	}
	if n := len(na.Path); n > 0 && !last.failed {
		p := na.Path[n-1]
		nr.cursor = &p
	}
	last.text = name + ": " + strings.Join(texts, "; ")
	if last.failed {
		last.text = "error: " + last.text
	}
	return last, nil
}

// nativeStep runs one step: a drag is judged at both ends.
func (r *run) nativeStep(ctx context.Context, tc contract.ToolCall, st call, out *iterOut) (outcome, error) {
	if st.action.Name == contract.ActDrag && st.action.To != nil && r.policy != nil {
		end := st
		end.action.At = st.action.To
		pd, refused, err := r.checkPolicy(ctx, end, out)
		switch {
		case err != nil:
			return outcome{}, err
		case refused != nil:
			refused.policy = pd
			refused.text = strings.Replace(refused.text, "drag", "drag (its drop point)", 1)
			return *refused, nil
		}
	}
	return r.executeCall(ctx, tc, st, out, nil)
}

// record keeps a native action's step for the call's record, with the
// webagent action it ran as (ran; nil for none), which a replay runs.
func (nr *nativeRun) record(name string, na contract.NativeAction, o outcome, took time.Duration, ran *ActionRecord) {
	rec := ActionRecord{Tool: name, Args: json.RawMessage(nativeArgs(na)), Outcome: o.text, Error: o.failed,
		MS: took.Milliseconds(), Policy: o.policy, Native: true}
	if ran != nil {
		ran.Outcome, ran.Error = o.text, o.failed
		rec.Calls = []ActionRecord{*ran}
	}
	nr.calls = append(nr.calls, rec)
}

// ranAs is the record of the webagent action a native step runs as: the
// action (its text masked), and for a click at a point the element under
// it, which a replay clicks wherever it is then (package replay).
func (r *run) ranAs(ctx context.Context, st call) *ActionRecord {
	a := st.action
	a.Text = r.sec.Mask(a.Text)
	args, err := json.Marshal(a)
	if err != nil {
		return nil
	}
	rec := &ActionRecord{Tool: st.tool.name, Args: args}
	d, ok := r.a.browser.(contract.TargetDescriber)
	if !ok || a.Name != contract.ActMouse || a.At == nil {
		return rec
	}
	dctx, cancel := context.WithTimeout(ctx, nativeShotBudget)
	defer cancel()
	if t, err := d.DescribeTarget(dctx, st.action); err == nil && t.Role != "" {
		rec.Element = &Element{Role: t.Role, Name: r.sec.Mask(t.Name), Ref: t.Ref}
	}
	return rec
}

// nativeArgs is an action as JSON, its text left out (it may hold a
// secret's placeholder, never a value: the record keeps its length).
func nativeArgs(na contract.NativeAction) string {
	if na.Text != "" {
		na.Text = fmt.Sprintf("(%d characters)", len([]rune(na.Text)))
	}
	b, _ := json.Marshal(na)
	return string(b)
}
