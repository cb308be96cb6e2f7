package browser

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"

	"github.com/webagent/webagent/contract"
)

// The actions on particular controls: hover, check and uncheck, drag and
// upload.

func (b *Browser) doHover(o *op, ref string) (string, error) {
	el, err := b.resolve(o, ref)
	if err != nil {
		return "", err
	}
	at, err := b.aim(o, el, "hover over", false)
	if err != nil {
		return "", err
	}
	s0 := b.nav.state()
	if _, err := cdp.Call(o.ctx, b.target, input.DispatchMouseEvent, input.DispatchMouseEventParams{
		Type: input.DispatchMouseEventTypeMouseMoved, X: at.x, Y: at.y,
	}); err != nil {
		return "", err
	}
	nav, err := b.afterInput(o, s0, inputGrace)
	if err != nil {
		return "", err
	}
	return "hovered over " + el.desc + nav, nil
}

// checkStateJS describes a checkable control: its kind, whether it is
// checked, and whether the element itself can be clicked (a hidden styled
// input cannot; its label is clicked instead).
var checkStateJS = program("checkState")

// clickTargetJS returns what to click to toggle a checkbox: the element
// itself when it is shown, else its first shown label.
var clickTargetJS = program("clickTarget")

// waitCheckedJS waits a few frames for the control's checked state to be
// want (a framework may update it after the click).
var waitCheckedJS = program("waitChecked")

func (b *Browser) doCheck(o *op, ref string, want bool) (string, error) {
	el, err := b.resolve(o, ref)
	if err != nil {
		return "", err
	}
	var st struct {
		Kind, Checked       string
		Disabled, Clickable bool
	}
	if err := b.callEl(o, el, checkStateJS, &st); err != nil {
		return "", err
	}
	verb, state := "check", "checked"
	if !want {
		verb, state = "uncheck", "not checked"
	}
	switch {
	case st.Kind == "":
		return "", contract.ActionErrorf("%s is not a checkbox, radio button or switch; click it instead", el.desc)
	case st.Checked == strconv.FormatBool(want):
		return fmt.Sprintf("%s is already %s", el.desc, state), nil
	case !want && st.Kind == "radio":
		return "", contract.ActionErrorf("%s is a radio button: it cannot be unchecked; check another option of its group", el.desc)
	case st.Disabled:
		return "", contract.ActionErrorf("%s is disabled, so it cannot be %s", el.desc, map[bool]string{true: "checked", false: "unchecked"}[want])
	case !st.Clickable:
		return "", contract.ActionErrorf("%s is not visible, and no visible label stands for it; take a new snapshot", el.desc)
	}
	target, ok, err := b.childEl(o, el, clickTargetJS)
	if err != nil {
		return "", err
	}
	if !ok {
		target = el
	}
	nav, err := b.clickElement(o, target, verb+"ing")
	if err != nil {
		return "", err
	}
	if nav != "" {
		return fmt.Sprintf("clicked %s to %s it%s", el.desc, verb, nav), nil
	}
	var done bool
	if err := b.callEl(o, el, waitCheckedJS, &done, strconv.FormatBool(want)); err != nil {
		return "", err
	}
	if !done {
		return "", contract.ActionErrorf("clicked %s, but it is still not %s; take a new snapshot to see why", el.desc, map[bool]string{true: "checked", false: "unchecked"}[want])
	}
	return fmt.Sprintf("%sed %s", verb, el.desc), nil
}

// dragSteps is the number of mouse moves between the press and the release
// of a drag: drag libraries need to see the pointer travel.
const dragSteps = 12

func (b *Browser) doDrag(o *op, a contract.Action) (string, error) {
	hasDst := strings.TrimSpace(a.ToRef) != ""
	if strings.TrimSpace(a.Ref) == "" {
		return b.dragPoints(o, a)
	}
	src, err := b.resolve(o, a.Ref)
	if err != nil {
		return "", err
	}
	if a.To != nil || strings.TrimSpace(a.Anchor) != "" || strings.TrimSpace(a.ToAnchor) != "" {
		return b.dragPoints(o, a)
	}
	var dst element
	if hasDst {
		if dst, err = b.resolve(o, a.ToRef); err != nil {
			return "", err
		}
	}
	from, err := b.aim(o, src, "drag of", false)
	if err != nil {
		return "", err
	}
	sx, sy := from.x, from.y
	var tx, ty float64
	if hasDst {
		notVisible := contract.ActionErrorf("%s is not visible, so nothing can be dropped on it; take a new snapshot", dst.desc)
		if _, err := cdp.Call(o.ctx, b.targetOf(dst.frame), dom.ScrollIntoViewIfNeeded, dom.ScrollIntoViewIfNeededParams{ObjectID: dst.id}); err != nil {
			if isProtocolError(err) {
				return "", notVisible
			}
			return "", err
		}
		x, y, box, err := b.visiblePart(o, dst, notVisible)
		if err != nil {
			return "", err
		}
		to, err := b.hitTest(o, dst, "drop onto", x, y, box)
		if err != nil {
			return "", err
		}
		tx, ty = to.x, to.y
		// Scrolling to the target may have moved the source.
		x, y, box, err = b.visiblePart(o, src, contract.ActionErrorf("%s and %s do not fit in the viewport together; scroll so that both show, or drag by an offset", src.desc, dst.desc))
		if err != nil {
			return "", err
		}
		if from, err = b.hitTest(o, src, "drag of", x, y, box); err != nil {
			return "", err
		}
		sx, sy = from.x, from.y
	} else {
		tx, ty = sx+float64(a.DX), sy+float64(a.DY)
		if tx < 0 || ty < 0 || tx >= float64(b.width) || ty >= float64(b.height) {
			return "", contract.ActionErrorf("dragging %s by (%d, %d) leads outside the viewport; scroll first or use a smaller offset", src.desc, a.DX, a.DY)
		}
	}
	watch := b.watchChanges(o)
	s0 := b.nav.state()
	dropped, err := b.dragMouse(o, straightMoves(sx, sy, tx, ty))
	if err != nil {
		return "", err
	}
	nav, err := b.afterInput(o, s0, inputGrace)
	if err != nil {
		return "", err
	}
	out := "dragged " + src.desc
	if hasDst {
		out += " onto " + dst.desc
	} else {
		out += fmt.Sprintf(" by (%d, %d)", a.DX, a.DY)
	}
	if dropped {
		out += " (HTML drag and drop)"
	}
	if nav != "" {
		return out + nav, nil
	}
	return out + watch(), nil
}

// straightMoves returns the press point, dragSteps moves in a straight line
// and the release point of a drag from (sx, sy) to (tx, ty).
func straightMoves(sx, sy, tx, ty float64) []contract.Point {
	out := []contract.Point{{X: sx, Y: sy}}
	for i := 1; i <= dragSteps; i++ {
		f := float64(i) / dragSteps
		out = append(out, contract.Point{X: sx + (tx-sx)*f, Y: sy + (ty-sy)*f})
	}
	return out
}

// dragMouse presses the left button at the first of moves, moves through
// the others and releases it at the last. When the page starts an HTML5
// drag, Chromium hands it over (Input.setInterceptDrags) and the drag
// events are dispatched at the last point; dropped reports that.
func (b *Browser) dragMouse(o *op, moves []contract.Point) (dropped bool, err error) {
	if len(moves) < 2 {
		return false, fmt.Errorf("a drag needs at least two points")
	}
	sx, sy := moves[0].X, moves[0].Y
	tx, ty := moves[len(moves)-1].X, moves[len(moves)-1].Y
	drags, stop := catchEvent(b.tabCtx, input.DragIntercepted, func(input.EventDragIntercepted) bool { return true })
	defer stop()
	if _, err := cdp.Call(o.ctx, b.target, input.SetInterceptDrags, input.SetInterceptDragsParams{Enabled: true}); err != nil {
		return false, err
	}
	defer func() {
		// Turn interception off even when the caller's context ended.
		ctx, cancel := context.WithTimeout(b.broken, cleanupTimeout)
		defer cancel()
		if _, err := cdp.Call(ctx, b.target, input.SetInterceptDrags, input.SetInterceptDragsParams{Enabled: false}); err != nil {
			b.log.Debug("turning drag interception off", "error", err)
		}
	}()
	mouse := func(typ input.DispatchMouseEventType, x, y float64, buttons int64) error {
		p := input.DispatchMouseEventParams{Type: typ, X: x, Y: y, Buttons: buttons}
		if typ != input.DispatchMouseEventTypeMouseMoved {
			p.ClickCount = 1
		}
		if typ != input.DispatchMouseEventTypeMouseMoved || buttons != 0 {
			// A move with the button held names it, or Chromium starts no drag.
			p.Button = input.MouseButtonLeft
		}
		_, err := cdp.Call(o.ctx, b.target, input.DispatchMouseEvent, p)
		return err
	}
	if err := mouse(input.DispatchMouseEventTypeMouseMoved, sx, sy, 0); err != nil {
		return false, err
	}
	if err := mouse(input.DispatchMouseEventTypeMousePressed, sx, sy, 1); err != nil {
		return false, err
	}
	var data *input.DragData
	for _, p := range moves[1:] {
		if data != nil {
			break
		}
		if err := mouse(input.DispatchMouseEventTypeMouseMoved, p.X, p.Y, 1); err != nil {
			return false, err
		}
		select {
		case ev := <-drags:
			data = ev.Data
		default:
		}
	}
	if data == nil {
		// A round trip to the page lets a pending interception arrive.
		if _, err := cdp.Call(o.ctx, b.target, runtime.Evaluate, runtime.EvaluateParams{Expression: "0", Silent: new(true)}); err != nil {
			return false, err
		}
		select {
		case ev := <-drags:
			data = ev.Data
		default:
		}
	}
	if data != nil {
		for _, typ := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
			if _, err := cdp.Call(o.ctx, b.target, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: tx, Y: ty, Data: data}); err != nil {
				return false, err
			}
		}
	}
	if err := mouse(input.DispatchMouseEventTypeMouseReleased, tx, ty, 0); err != nil {
		return false, err
	}
	return data != nil, nil
}

// fileInputJS finds the file input an element stands for: itself, the
// control of a label, the one file input inside it, or the one file input
// of a nearby ancestor (a styled "Choose file" button next to a hidden
// input).
var fileInputJS = program("fileInput")

// fileInputStateJS reports a file input's disabled, multiple and accept.
var fileInputStateJS = program("fileInputState")

func (b *Browser) doUpload(o *op, ref string, files []string) (string, error) {
	paths, err := b.uploadPaths(files)
	if err != nil {
		return "", err
	}
	el, err := b.resolve(o, ref)
	if err != nil {
		return "", err
	}
	fin, ok, err := b.childEl(o, el, fileInputJS)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", contract.ActionErrorf("%s is not a file input, and no file input belongs to it; give the ref of the file input or of its label or button", el.desc)
	}
	var st struct {
		Disabled, Multiple bool
		Accept             string
	}
	if err := b.callEl(o, fin, fileInputStateJS, &st); err != nil {
		return "", err
	}
	switch {
	case st.Disabled:
		return "", contract.ActionErrorf("the file input of %s is disabled", el.desc)
	case len(paths) > 1 && !st.Multiple:
		return "", contract.ActionErrorf("%s takes one file only; upload one of them", el.desc)
	}
	s0 := b.nav.state()
	if _, err := cdp.Call(o.ctx, b.targetOf(fin.frame), dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: paths, ObjectID: fin.id}); err != nil {
		if isProtocolError(err) {
			return "", contract.ActionErrorf("could not put the files into %s: %v", el.desc, err)
		}
		return "", err
	}
	nav, err := b.afterInput(o, s0, inputGrace)
	if err != nil {
		return "", err
	}
	quoted := make([]string, len(files))
	for i, f := range files {
		quoted[i] = strconv.Quote(filepath.ToSlash(filepath.Clean(strings.TrimSpace(f))))
	}
	return fmt.Sprintf("uploaded %s into %s%s", strings.Join(quoted, ", "), el.desc, nav), nil
}

// uploadPaths resolves the file names the model gave inside the upload
// folder. Absolute paths, "..", names that lead outside the folder through
// a symbolic link, folders and missing files are refused.
func (b *Browser) uploadPaths(files []string) ([]string, error) {
	if b.uploadDir == "" {
		return nil, contract.ActionErrorf("uploads are not allowed: no folder for uploads was configured (the user can allow one with --upload-dir)")
	}
	root, err := filepath.Abs(b.uploadDir)
	if err == nil {
		root, err = filepath.EvalSymlinks(root)
	}
	if err != nil {
		return nil, contract.ActionErrorf("the upload folder cannot be used: %v", err)
	}
	var out []string
	for _, f := range files {
		name := strings.TrimSpace(f)
		switch {
		case name == "":
			return nil, contract.ActionErrorf("an empty file name was given; %s", b.uploadListing(root))
		case filepath.IsAbs(name) || strings.HasPrefix(name, "/") || strings.HasPrefix(name, `\`) || filepath.VolumeName(name) != "":
			return nil, contract.ActionErrorf("%q is an absolute path: give the file's name inside the upload folder; %s", f, b.uploadListing(root))
		}
		for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '/' || r == '\\' }) {
			if part == ".." {
				return nil, contract.ActionErrorf("%q leads out of the upload folder: \"..\" is not allowed; %s", f, b.uploadListing(root))
			}
		}
		p := filepath.Join(root, filepath.FromSlash(name))
		real, err := filepath.EvalSymlinks(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, contract.ActionErrorf("there is no file %q in the upload folder; %s", f, b.uploadListing(root))
		}
		if err != nil {
			return nil, contract.ActionErrorf("the file %q cannot be used: %v", f, err)
		}
		if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, contract.ActionErrorf("%q is a link that leads outside the upload folder, which is not allowed", f)
		}
		fi, err := os.Stat(real)
		if err != nil {
			return nil, contract.ActionErrorf("the file %q cannot be used: %v", f, err)
		}
		if !fi.Mode().IsRegular() {
			return nil, contract.ActionErrorf("%q is not a file (a folder?); give a file's name", f)
		}
		out = append(out, real)
	}
	return out, nil
}

// uploadListing names the files the upload folder offers.
func (b *Browser) uploadListing(root string) string {
	entries, err := os.ReadDir(root)
	if err != nil {
		return "the upload folder cannot be listed"
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() {
			names = append(names, strconv.Quote(e.Name()))
		}
	}
	switch {
	case len(names) == 0:
		return "the upload folder holds no files"
	case len(names) > 30:
		return fmt.Sprintf("the upload folder holds %s and %d more", strings.Join(names[:30], ", "), len(names)-30)
	}
	return "the upload folder holds " + strings.Join(names, ", ")
}
