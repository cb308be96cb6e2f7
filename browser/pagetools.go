package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/webmcp"
	"github.com/chromedp/chromedp"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/webagent/webagent/contract"
)

// Page tools (WebMCP): tools a page's documents offer, registered by a
// script (document.modelContext.registerTool) or declared by a form
// (<form toolname=...>). Chromium reports them through its WebMCP domain,
// switched on in each tab and each cross-origin frame webagent attaches
// to; its events keep each tab's list up to date as documents add and
// remove tools, so a snapshot lists them with no call of its own (none at
// all on a page without tools). page_tool invokes one, with its
// arguments checked against the tool's schema first.

// pageTools are the page tools of one tab: those its documents registered,
// and the targets their frames are reached through.
type pageTools struct {
	mu     sync.Mutex
	tools  []*webmcp.Tool
	frames map[cdp.FrameID]guarded // a tool's frame: the target it is invoked through
	// answers are the invocations' results, by invocation id, until the
	// call that waits for one takes it.
	answers map[string]*webmcp.EventToolResponded
	arrived chan struct{} // closed and replaced when an answer arrives
}

// follow switches WebMCP on in target (the tab's, or a cross-origin
// frame's on ctx) and keeps the list from its events. A browser without
// the feature (one attached to, started without it) offers no tools.
func (pt *pageTools) follow(ctx context.Context, target guarded) error {
	pt.mu.Lock()
	if pt.frames == nil {
		pt.frames, pt.answers, pt.arrived = map[cdp.FrameID]guarded{}, map[string]*webmcp.EventToolResponded{}, make(chan struct{})
	}
	pt.mu.Unlock()
	// Listen: the events that came before a call's reply are in the list
	// when the call returns (enable's, for the tools already there).
	if err := chromedp.Listen(ctx, func(ev any) { pt.handle(target, ev) }); err != nil {
		return err
	}
	_, err := cdp.Call(ctx, target, webmcp.Enable, cdp.Empty{})
	return err
}

func (pt *pageTools) handle(target guarded, ev any) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	switch e := ev.(type) {
	case *webmcp.EventToolsAdded:
		for _, t := range e.Tools {
			pt.tools = slices.DeleteFunc(pt.tools, func(o *webmcp.Tool) bool { return o.FrameID == t.FrameID && o.Name == t.Name })
			pt.tools = append(pt.tools, t)
			pt.frames[t.FrameID] = target
		}
	case *webmcp.EventToolsRemoved:
		for _, r := range e.Tools {
			pt.tools = slices.DeleteFunc(pt.tools, func(o *webmcp.Tool) bool { return o.FrameID == r.FrameID && o.Name == r.Name })
		}
	case *page.EventFrameNavigated:
		// A new document: the old one's tools went with it (Chromium
		// reports no removal for them).
		pt.tools = slices.DeleteFunc(pt.tools, func(o *webmcp.Tool) bool { return o.FrameID == e.Frame.ID })
	case *webmcp.EventToolResponded:
		pt.answers[e.InvocationID] = e
		close(pt.arrived)
		pt.arrived = make(chan struct{})
	}
}

// list returns the tools registered now, in the order they came.
func (pt *pageTools) list() []*webmcp.Tool {
	if pt == nil {
		return nil
	}
	pt.mu.Lock()
	defer pt.mu.Unlock()
	return slices.Clone(pt.tools)
}

// answer waits for the answer to invocation id until ctx ends.
func (pt *pageTools) answer(ctx context.Context, id string) (*webmcp.EventToolResponded, error) {
	for {
		pt.mu.Lock()
		a, ok := pt.answers[id]
		delete(pt.answers, id)
		arrived := pt.arrived
		pt.mu.Unlock()
		if ok {
			return a, nil
		}
		select {
		case <-arrived:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// forget drops the answer of an invocation no call waits for any more.
func (pt *pageTools) forget(id string) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	delete(pt.answers, id)
}

// listPageTools lists the current tab's page tools for the snapshot, with
// the origin of each one's document. A page without tools costs no call.
func (o *op) listPageTools() ([]contract.PageTool, error) {
	tools := o.tab.tools.list()
	if len(tools) == 0 {
		return nil, nil
	}
	origins, err := o.frameOrigins(tools)
	if err != nil {
		return nil, err
	}
	var out []contract.PageTool
	for _, t := range tools {
		origin, ok := origins[t.FrameID]
		if !ok {
			continue // its frame is gone
		}
		pt := contract.PageTool{Name: t.Name, Description: t.Description, Origin: origin, Form: t.BackendNodeID != 0}
		if len(t.InputSchema) > 0 && string(t.InputSchema) != "null" {
			pt.InputSchema = json.RawMessage(t.InputSchema)
		}
		if t.Annotations != nil {
			pt.ReadOnly = t.Annotations.ReadOnly
		}
		out = append(out, pt)
	}
	return out, nil
}

// frameOrigins maps the frames of the targets that tools live in to their
// documents' origins.
func (o *op) frameOrigins(tools []*webmcp.Tool) (map[cdp.FrameID]string, error) {
	pt := o.tab.tools
	pt.mu.Lock()
	var targets []guarded
	for _, t := range tools {
		if g, ok := pt.frames[t.FrameID]; ok && !slices.ContainsFunc(targets, func(x guarded) bool { return x.Target == g.Target }) {
			targets = append(targets, g)
		}
	}
	pt.mu.Unlock()
	// A cross-origin frame's target counts while the frame is attached
	// (the latest snapshot met it); a gone one's tools went with it.
	targets = slices.DeleteFunc(targets, func(g guarded) bool { return !o.liveTarget(g) })
	out := map[cdp.FrameID]string{}
	for _, g := range targets {
		tree, err := cdp.Call(o.ctx, g, page.GetFrameTree, cdp.Empty{})
		if err != nil {
			if o.ctx.Err() != nil {
				return nil, o.ctx.Err()
			}
			continue // a frame that went away
		}
		var walk func(ft *page.FrameTree)
		walk = func(ft *page.FrameTree) {
			out[ft.Frame.ID] = frameOrigin(ft.Frame)
			for _, c := range ft.ChildFrames {
				walk(c)
			}
		}
		walk(tree.FrameTree)
	}
	return out, nil
}

// liveTarget reports whether g is the tab's target or that of a
// cross-origin frame attached now.
func (o *op) liveTarget(g guarded) bool {
	if g.Target == o.tab.target.Target {
		return true
	}
	f := &o.b.snap.frames
	f.mu.Lock()
	defer f.mu.Unlock()
	fr, ok := f.m[cdp.FrameID(g.Target.TargetID)]
	return ok && fr.target.Target == g.Target
}

func frameOrigin(f *cdp.Frame) string {
	if f.SecurityOrigin != "" && f.SecurityOrigin != "null" {
		return strings.ToLower(f.SecurityOrigin)
	}
	u, err := url.Parse(f.URL)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Scheme + "://" + u.Host)
}

// pageToolsText is the snapshot's list of page tools.
func pageToolsText(tools []contract.PageTool, top string) string {
	if len(tools) == 0 {
		return ""
	}
	var sb strings.Builder
	sb.WriteString("page tools (the page's own tools: call one with page_tool, name and arguments; what they return is page content):\n")
	for _, t := range tools {
		fmt.Fprintf(&sb, "- %s", t.Name)
		if args := compactSchema(t.InputSchema); args != "" {
			fmt.Fprintf(&sb, "(%s)", args)
		} else {
			sb.WriteString("()")
		}
		if t.Description != "" {
			fmt.Fprintf(&sb, ": %s", truncate(t.Description, 200))
		}
		var notes []string
		if t.ReadOnly {
			notes = append(notes, "read-only")
		}
		if t.Form {
			notes = append(notes, "fills a form")
		}
		if t.Origin != top {
			notes = append(notes, "offered by a frame of "+t.Origin)
		}
		if len(notes) > 0 {
			fmt.Fprintf(&sb, " [%s]", strings.Join(notes, "; "))
		}
		sb.WriteString("\n")
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

// compactSchema writes an input schema's properties in a line: name:
// type, ? for optional ones, with their descriptions and enums.
func compactSchema(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s struct {
		Properties map[string]struct {
			Type        any    `json:"type"`
			Description string `json:"description"`
			Enum        []any  `json:"enum"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if json.Unmarshal(raw, &s) != nil {
		return truncate(string(raw), 300)
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int {
		ra, rb := slices.Contains(s.Required, a), slices.Contains(s.Required, b)
		switch {
		case ra && !rb:
			return -1
		case rb && !ra:
			return 1
		}
		return strings.Compare(a, b)
	})
	var parts []string
	for _, n := range names {
		p := s.Properties[n]
		part := n
		if !slices.Contains(s.Required, n) {
			part += "?"
		}
		if p.Type != nil {
			part += fmt.Sprintf(": %v", p.Type)
		}
		if len(p.Enum) > 0 {
			var vs []string
			for _, v := range p.Enum {
				vs = append(vs, fmt.Sprint(v))
			}
			part += " (" + strings.Join(vs, "|") + ")"
		}
		if p.Description != "" {
			part += " — " + truncate(p.Description, 80)
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, ", ")
}

// formToolGrace is how long a form's tool that does not submit by itself
// (no toolautosubmit) is waited for: the browser fills the form and leaves
// its submission to the page's user.
const formToolGrace = time.Second

// doPageTool calls a page tool: found by its name among the current
// tab's, its arguments checked against its input schema before the page
// sees them, refused when the Browser is read-only and the tool does not
// say it is, or when its arguments carry a secret and its document is not
// on the secret's origin. It waits for the tool's answer as long as the
// action's budget allows; an invocation still running then is cancelled.
func (o *op) doPageTool(a contract.Action) (string, error) {
	c, args, err := o.findPageTool(a)
	if err != nil {
		return "", err
	}
	s0 := o.b.nav.state()
	res, err := cdp.Call(o.ctx, c.target, webmcp.InvokeTool, webmcp.InvokeToolParams{FrameID: c.frame, ToolName: c.Name, Input: []byte(args)})
	if err != nil {
		return "", err
	}
	fills := c.Form && !c.autosubmit
	wait := o.ctx
	if fills {
		var cancel context.CancelFunc
		wait, cancel = context.WithTimeout(o.ctx, formToolGrace)
		defer cancel()
	}
	ans, err := o.tab.tools.answer(wait, res.InvocationID)
	if err != nil {
		o.tab.tools.forget(res.InvocationID)
		if o.ctx.Err() == nil && fills {
			nav, _ := o.followNavigation(s0, 0)
			return "page tool " + c.Name + " filled its form, which the page leaves to be submitted: click its submit button to send it" + nav, nil
		}
		o.cancelInvocation(c.target, res.InvocationID)
		return "", err
	}
	nav, err := o.afterInput(s0, inputGrace)
	if err != nil {
		return "", err
	}
	return describeAnswer(c.Name, ans, nav)
}

// pageToolCall is the page tool a call names, with what invoking it needs.
type pageToolCall struct {
	contract.PageTool
	frame      cdp.FrameID
	target     guarded
	autosubmit bool
}

// findPageTool finds the tool a names and checks that it may be called
// with its arguments, which it returns ({} for none).
func (o *op) findPageTool(a contract.Action) (pageToolCall, json.RawMessage, error) {
	tools, err := o.listPageTools()
	if err != nil {
		return pageToolCall{}, nil, err
	}
	i := slices.IndexFunc(tools, func(t contract.PageTool) bool { return t.Name == a.Tool })
	if i < 0 {
		var names []string
		for _, t := range tools {
			names = append(names, t.Name)
		}
		if len(names) == 0 {
			return pageToolCall{}, nil, contract.ActionErrorf("the page offers no tool %q (it offers none now: it may have been removed, or the page changed); take a new snapshot", a.Tool)
		}
		return pageToolCall{}, nil, contract.ActionErrorf("the page offers no tool %q now (it may have been removed); its tools: %s", a.Tool, strings.Join(names, ", "))
	}
	c := pageToolCall{PageTool: tools[i]}
	args := a.Arguments
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage(`{}`)
	}
	if err := checkToolArgs(c.PageTool, args); err != nil {
		return c, nil, err
	}
	if o.b.opts.ReadOnly && !c.ReadOnly {
		return c, nil, contract.ActionErrorf("page tool %s was not called: the run is read-only, and the page does not mark this tool read-only", c.Name)
	}
	if a.Origins != nil && !slices.Contains(a.Origins, c.Origin) {
		return c, nil, contract.ActionErrorf("the secret %s may only be given to %s; page tool %s is offered by %s, so it was not called",
			strings.Join(a.SecretNames, ", "), strings.Join(a.Origins, ", "), c.Name, c.Origin)
	}
	pt := o.tab.tools
	pt.mu.Lock()
	defer pt.mu.Unlock()
	j := slices.IndexFunc(pt.tools, func(x *webmcp.Tool) bool { return x.Name == c.Name })
	if j < 0 {
		return c, nil, contract.ActionErrorf("page tool %s was removed before it could be called; take a new snapshot", c.Name)
	}
	c.frame = pt.tools[j].FrameID
	c.autosubmit = pt.tools[j].Annotations != nil && pt.tools[j].Annotations.Autosubmit
	var ok bool
	if c.target, ok = pt.frames[c.frame]; !ok {
		return c, nil, contract.ActionErrorf("page tool %s has no document any more; take a new snapshot", c.Name)
	}
	return c, args, nil
}

// describeAnswer is the outcome of a tool's answer; nav, what its call
// navigated to.
func describeAnswer(name string, ans *webmcp.EventToolResponded, nav string) (string, error) {
	switch ans.Status {
	case webmcp.InvocationStatusCompleted:
		return "page tool " + name + " answered: " + truncate(toolOutput(ans.Output), 4000) + nav, nil
	case webmcp.InvocationStatusCanceled:
		return "", contract.ActionErrorf("page tool %s was cancelled by the page%s", name, nav)
	}
	why := ans.ErrorText
	if ans.Exception != nil && ans.Exception.Description != "" {
		why, _, _ = strings.Cut(ans.Exception.Description, "\n")
	}
	return "", contract.ActionErrorf("page tool %s failed: %s%s", name, truncate(why, 500), nav)
}

// cancelInvocation cancels an invocation the action no longer waits for,
// under a bound of its own (the action's context has ended).
func (o *op) cancelInvocation(target guarded, id string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(o.ctx), 2*time.Second)
	defer cancel()
	if _, err := cdp.Call(ctx, target, webmcp.CancelInvocation, webmcp.CancelInvocationParams{InvocationID: id}); err != nil {
		o.b.log.Debug("cancelling a page tool's invocation", "error", err)
	}
}

// toolOutput is a tool's output as text: the text of an MCP-style result's
// content, else its JSON.
func toolOutput(v []byte) string {
	var res struct {
		Content []struct {
			Type, Text string
		} `json:"content"`
	}
	if json.Unmarshal(v, &res) == nil && len(res.Content) > 0 {
		var parts []string
		for _, c := range res.Content {
			if c.Text != "" {
				parts = append(parts, c.Text)
			}
		}
		if len(parts) > 0 {
			return strings.Join(parts, "\n")
		}
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(bytes.TrimSpace(v))
}

// checkToolArgs validates a call's arguments against the tool's input
// schema; the error says what is wrong, for the model.
func checkToolArgs(t contract.PageTool, args json.RawMessage) error {
	if len(t.InputSchema) == 0 {
		return nil
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(t.InputSchema, &s); err != nil {
		return nil // a schema the page wrote badly: the page judges
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return nil
	}
	var v any
	if err := json.Unmarshal(args, &v); err != nil {
		return contract.ActionErrorf("the arguments of page tool %s are not JSON: %v", t.Name, err)
	}
	if err := rs.Validate(v); err != nil {
		return contract.ActionErrorf("page tool %s was not called: its arguments do not match its input schema (%v); the snapshot lists what it takes", t.Name, err)
	}
	return nil
}

// origin is the origin (scheme://host:port) of a URL, lower case; "" for
// one without a host.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Scheme + "://" + u.Host)
}
