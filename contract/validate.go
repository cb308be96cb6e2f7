package contract

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// Validate checks that the action's fields fit its name: an action it
// knows, the fields it needs, values among those it takes, and no two
// fields that exclude each other. It does not look at the page: a ref may
// still be unknown, a field may still refuse the text.
//
// The loop's parser of model calls and Browser.Do both call it, so a rule
// is written once. Its error is an *ActionError written for a model: what
// is wrong and what to send instead.
func (a Action) Validate() error {
	check, ok := rules[a.Name]
	if !ok {
		return ActionErrorf("unknown action %q: use %s", a.Name, strings.Join(ActionNames(), ", "))
	}
	if check == nil {
		return nil
	}
	return check(a)
}

// rules are the checks of each action's fields; nil when any fields do.
var rules = map[string]func(Action) error{
	ActGoto:        checkGoto,
	ActClick:       nil,
	ActType:        nil,
	ActSelect:      nil,
	ActCheck:       nil,
	ActUncheck:     nil,
	ActPress:       nil,
	ActHover:       nil,
	ActScroll:      checkScroll,
	ActDrag:        checkDrag,
	ActUpload:      checkUpload,
	ActBack:        nil,
	ActForward:     nil,
	ActTabs:        checkTabs,
	ActWaitFor:     checkWaitFor,
	ActExtract:     nil,
	ActBox:         nil,
	ActReadRegion:  nil,
	ActOptions:     nil,
	ActPageTool:    checkPageTool,
	ActMouse:       checkMouse,
	ActMousePath:   checkMousePath,
	ActSetSlider:   nil,
	ActMultiSelect: checkMultiSelect,
	ActSelectText:  checkSelectText,
	ActWait:        checkWait,
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }

func checkGoto(a Action) error {
	if blank(a.URL) {
		return ActionErrorf("goto needs a URL")
	}
	return nil
}

func checkScroll(a Action) error {
	if !blank(a.Ref) {
		return nil
	}
	if a.At != nil && (a.DX != 0 || a.DY != 0) {
		return nil // the wheel at a point by an amount (vendors' computer tools)
	}
	dir := strings.ToLower(strings.TrimSpace(a.Direction))
	switch {
	case dir == "":
		return ActionErrorf("scroll needs a direction, or a ref to bring into view")
	case !slices.Contains(Directions, dir):
		return ActionErrorf("unknown scroll direction %q: use up, down, left or right", a.Direction)
	}
	return nil
}

// checkPoints checks the pointer fields every action may carry: a point
// is given by a ref or by coordinates, not both, and offsets into a text
// are not negative.
func checkPoints(a Action) error {
	if a.At != nil && !blank(a.Ref) {
		return ActionErrorf("%s takes either a ref (with anchor, dx, dy) or x and y, not both", a.Name)
	}
	if a.To != nil && !blank(a.ToRef) {
		return ActionErrorf("%s takes either to_ref or to_x and to_y, not both", a.Name)
	}
	if err := CheckAnchor(a.Anchor); err != nil {
		return err
	}
	return CheckAnchor(a.ToAnchor)
}

// CheckAnchor says whether name is one of Anchors ("centre" and "" are the
// center too).
func CheckAnchor(name string) error {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "" || n == "centre" || slices.Contains(Anchors, n) {
		return nil
	}
	return ActionErrorf("unknown anchor %q: use center, top-left, top-right, bottom-left, bottom-right, left, right, top or bottom", name)
}

func checkDrag(a Action) error {
	if blank(a.Ref) && a.At == nil {
		return ActionErrorf("drag needs where to start: a ref, or x and y")
	}
	if blank(a.ToRef) && a.To == nil && a.DX == 0 && a.DY == 0 {
		return ActionErrorf("drag needs to_ref, to_x and to_y, or an offset dx/dy: where to drop")
	}
	return checkPoints(a)
}

func checkUpload(a Action) error {
	if len(a.Files) == 0 {
		return ActionErrorf("upload needs the names of the files, inside the upload folder")
	}
	return nil
}

func checkTabs(a Action) error {
	switch op := strings.ToLower(strings.TrimSpace(a.Op)); op {
	case TabsList, "":
		return nil
	case TabsSwitch, TabsClose:
		if blank(a.Tab) {
			return ActionErrorf("tabs %s needs the tab's id; call tabs with op list to see them", op)
		}
		return nil
	}
	return ActionErrorf("unknown tabs op %q: use list, switch or close", a.Op)
}

func checkWaitFor(a Action) error {
	text, ref, state := strings.TrimSpace(a.Text), strings.TrimSpace(a.Ref), strings.TrimSpace(a.State)
	switch {
	case text == "" && ref == "":
		return ActionErrorf("wait_for needs a text or a ref")
	case state != "" && state != WaitAppear && state != WaitDisappear && state != WaitEnabled:
		return ActionErrorf("unknown state %q: use appear, disappear or enabled", a.State)
	case state == WaitEnabled && text != "":
		return ActionErrorf("wait_for with state enabled takes a ref only, not a text")
	}
	return nil
}

func checkMouse(a Action) error {
	switch strings.TrimSpace(a.Op) {
	case "", MouseClick, MouseDoubleClick, MouseRightClick, MouseHover, MouseTripleClick:
	default:
		return ActionErrorf("unknown mouse op %q: use click, double_click, right_click or hover", a.Op)
	}
	if blank(a.Ref) && a.At == nil {
		return ActionErrorf("mouse needs x and y, or a ref")
	}
	return checkPoints(a)
}

func checkMousePath(a Action) error {
	if len(a.Path) < 2 {
		return ActionErrorf("mouse_path needs at least two points")
	}
	return nil
}

func checkMultiSelect(a Action) error {
	if len(a.Options) == 0 && len(a.Remove) == 0 {
		return ActionErrorf("multi_select needs options to add or to remove")
	}
	return nil
}

// checkSelectText: a text to select (inside ref, or anywhere on the page
// without one), or offsets start and end into the text of ref's element.
func checkSelectText(a Action) error {
	switch {
	case a.Start != nil && *a.Start < 0:
		return ActionErrorf("start must not be negative")
	case a.End != nil && *a.End < 0:
		return ActionErrorf("end must not be negative")
	case blank(a.Text) && (a.Start == nil || a.End == nil):
		return ActionErrorf("select_text needs the text to select, or start and end offsets with a ref")
	case blank(a.Text) && blank(a.Ref):
		return ActionErrorf("select_text with start and end needs the ref of the element whose text they count in; or give the text to select instead")
	}
	return nil
}

func checkWait(a Action) error {
	if a.MS <= 0 || int64(a.MS) > MaxWait.Milliseconds() {
		return ActionErrorf("ms must be between 1 and %d, not %d", MaxWait.Milliseconds(), a.MS)
	}
	return nil
}

// ActionNames returns the names of the actions Validate knows, sorted.
func ActionNames() []string { return slices.Sorted(maps.Keys(rules)) }

// checkPageTool: a page tool's name, and arguments that are a JSON object
// (or none).
func checkPageTool(a Action) error {
	if strings.TrimSpace(a.Tool) == "" {
		return ActionErrorf(`page_tool needs the name of a tool the snapshot lists under "page tools", e.g. {"name":"add_to_cart","arguments":{"sku":"B-12"}}`)
	}
	if len(a.Arguments) > 0 && string(a.Arguments) != "null" {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(a.Arguments, &m); err != nil {
			return ActionErrorf("the arguments of page tool %q must be a JSON object, as its input schema says: %v", a.Tool, err)
		}
	}
	return nil
}
