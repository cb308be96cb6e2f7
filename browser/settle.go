package browser

import (
	"github.com/chromedp/cdproto/runtime"
)

// animationsMaxMS bounds how long a snapshot waits for the page's animations.
const animationsMaxMS = 400

// animationsJS waits, in the page, until the CSS animations and transitions and
// Web Animations that are running and about to end (within a second) have
// finished, and then for one frame, so that the snapshot does not show an
// accordion half-open or a menu half-closed. It waits at most maxMS and not
// at all when nothing moves; endless animations (spinners) and long ones
// (marquees) are not waited for. It resolves to the milliseconds waited.
var animationsJS = program("animations")

// settleAnimations waits, bounded by animationsMaxMS and o's context, for the page's
// running animations to end before a snapshot. A page where this fails
// (a frozen script, a navigation under way) is snapshotted as it is: the
// snapshot's own evaluation reports what is wrong. waited is false when
// the page said nothing moved, and nothing was waited for.
func (o *op) settleAnimations() (waited bool) {
	b := o.b
	r, err := o.eval(runtime.EvaluateParams{
		Expression:    jsCall(animationsJS, animationsMaxMS),
		AwaitPromise:  new(true),
		ReturnByValue: new(true),
	})
	if err != nil {
		b.log.Debug("waiting for animations before the snapshot", "error", err)
		return true
	}
	var ms float64
	if err := decodeValue(r, &ms); err != nil {
		return true
	}
	if ms > 0 {
		b.log.Debug("waited for animations before the snapshot", "ms", ms)
	}
	return ms != 0
}
