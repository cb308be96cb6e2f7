package agent

import "time"

// DecodeAction reads a recorded tool call (its name and JSON arguments, as
// in ActionRecord) into the Action the loop would have run, with the same
// checks. Trace replay uses it; tools that are not browser actions (done,
// fail, ask_human, screenshot) return ok false.
func DecodeAction(tool, args string) (a Action, ok bool, err error) {
	ts := newToolset(true, time.Minute, true)
	c, err := ts.parse(ToolCall{Name: tool, Arguments: args})
	if err != nil {
		return Action{}, false, err
	}
	switch {
	case !ts.acts(tool), tool == ToolDone, tool == ToolFail, tool == ToolAskHuman, tool == ToolScreenshot:
		return Action{}, false, nil
	}
	return c.action, true, nil
}
