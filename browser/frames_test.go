package browser

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

// TestSnapshotFrameNavigatesMidWalk: a same-origin frame is navigated while
// the walker reads the page; the snapshot waits for the frame's new
// document and shows it.
func TestSnapshotFrameNavigatesMidWalk(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	base := serve(t, map[string]string{
		"/outer":  `<title>Outer</title><p>outer text</p><iframe title="Form frame" src="/form" width=400 height=200></iframe>`,
		"/form":   `<p>the form</p><button>Send</button>`,
		"/thanks": `<p>thank you for your message</p>`,
	})
	s := open(t, shared, base+"/outer")
	if !strings.Contains(s.Text, "the form") {
		t.Fatalf("the frame's first document is not shown:\n%s", s.Text)
	}
	armTripwire(t, shared, "Element.getBoundingClientRect", `document.querySelector('iframe').contentWindow.location.href = '/thanks';`)
	s = snapshot(t, shared)
	if !strings.Contains(s.Text, "thank you for your message") || strings.Contains(s.Text, "the form") {
		t.Errorf("the snapshot does not show the frame's new document:\n%s", s.Text)
	}
}

// TestSnapshotCrossOriginFrameDetachedMidSnapshot: a frame of another site
// is removed right after the page's walker ran, while the snapshot attaches
// to the frame's own target to read it.
func TestSnapshotCrossOriginFrameDetachedMidSnapshot(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	frame := serve(t, map[string]string{"/f": `<p>frame text</p><button>Frame button</button>`})
	frameURL := strings.Replace(frame, "127.0.0.1", "localhost", 1) + "/f"
	base := serve(t, map[string]string{
		"/outer": `<title>Outer</title><p>outer text</p><iframe title="Other site" src="` + frameURL + `" width=400 height=200></iframe>`,
	})
	s := open(t, shared, base+"/outer")
	if !strings.Contains(s.Text, "frame text") {
		t.Fatalf("the frame's content is not shown:\n%s", s.Text)
	}
	for i := range 3 {
		if i == 0 {
			armTripwire(t, shared, "Element.getBoundingClientRect", `setTimeout(() => document.querySelector('iframe').remove(), 0);`)
		}
		s, err := shared.Snapshot(tctx(t))
		if err != nil {
			t.Fatalf("snapshot %d after the frame went away: %v", i, err)
		}
		if !strings.Contains(s.Text, "outer text") {
			t.Errorf("snapshot %d lost the page:\n%s", i, s.Text)
		}
		if i > 0 && strings.Contains(s.Text, "frame text") {
			t.Errorf("snapshot %d still shows the removed frame:\n%s", i, s.Text)
		}
	}
}

// A frame of another site runs in its own renderer; its refs come from the
// frame's own walker, and the actions reach its elements there. The frame
// lies right of its own width, so a point in it is measured in the top
// viewport, not the frame's.
func TestActionsInCrossOriginFrame(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	inner := serve(t, map[string]string{
		"/": `<title>Inner</title><p>inner words</p>
<button onclick="document.getElementById('log').textContent = 'inner clicked'">Inner button</button>
<input aria-label="Inner field"><label><input type=checkbox id=c> Inner box</label>
<select aria-label="Inner select"><option>One</option><option>Two</option></select>
<p id=log></p>`,
	})
	// localhost and 127.0.0.1 are different sites.
	innerURL := strings.Replace(inner, "127.0.0.1", "localhost", 1) + "/"
	outer := serve(t, map[string]string{
		"/": `<title>Outer</title><p>outer words</p><iframe src="` + innerURL + `" title="Other site" width=500 height=300 style="margin-left:560px"></iframe>
<div id=cover style="position:fixed;left:0;top:0;width:100%;height:100%;display:none;background:rgba(0,0,0,.3)" aria-label="Dimmer"></div>`,
	})
	s := open(t, shared, outer+"/")
	if !strings.Contains(s.Text, "inner words") {
		t.Skipf("the snapshot does not show the cross-origin frame yet:\n%s", s.Text)
	}
	btn := ref(t, s, "button", "Inner button")
	out := do(t, shared, contract.Action{Name: contract.ActClick, Ref: btn})
	if out != `clicked button "Inner button" [ref=`+btn+`]` {
		t.Errorf("click outcome = %q", out)
	}
	do(t, shared, contract.Action{Name: contract.ActType, Ref: ref(t, s, "textbox", "Inner field"), Text: "typed across sites"})
	do(t, shared, contract.Action{Name: contract.ActCheck, Ref: ref(t, s, "checkbox", "Inner box")})
	do(t, shared, contract.Action{Name: contract.ActSelect, Ref: ref(t, s, "combobox", "Inner select"), Option: "Two"})
	s = snapshot(t, shared)
	wantText(t, s, "inner clicked")
	wantText(t, s, `textbox "Inner field" value="typed across sites"`)
	wantText(t, s, `checkbox "Inner box" checked`)
	wantText(t, s, `combobox "Inner select" value="Two"`)
	// An overlay of the page covers the frame's button.
	evalPage[any](t, shared, "document.getElementById('cover').style.display = 'block', 0")
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActClick, Ref: btn})
	if !isActionError(err) || !strings.Contains(err.Error(), `covered by div "Dimmer"`) {
		t.Errorf("click under the page's overlay: %v", err)
	}
}
