package browser

import (
	"fmt"

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
const animationsJS = `(async (maxMS) => {
  const t0 = performance.now();
  const ending = () => document.getAnimations().filter((a) => {
    if (a.playState !== 'running' || !a.effect) return false;
    const t = a.effect.getComputedTiming();
    if (!isFinite(t.endTime)) return false;
    const rate = Math.abs(a.playbackRate) || 1;
    return (t.endTime - (a.currentTime || 0)) / rate < 1000;
  });
  const timer = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
  let a = ending();
  if (!a.length) return 0;
  while (a.length && performance.now() - t0 < maxMS) {
    await Promise.race([Promise.allSettled(a.map((x) => x.finished)), timer(maxMS - (performance.now() - t0))]);
    a = ending();
  }
  await Promise.race([new Promise((r) => requestAnimationFrame(() => r())), timer(50)]);
  return performance.now() - t0;
})`

// settleAnimations waits, bounded by animationsMaxMS and o's context, for the page's
// running animations to end before a snapshot. A page where this fails
// (a frozen script, a navigation under way) is snapshotted as it is: the
// snapshot's own evaluation reports what is wrong.
func (b *Browser) settleAnimations(o *op) {
	r, err := b.eval(o, runtime.EvaluateParams{
		Expression:    fmt.Sprintf("%s(%d)", animationsJS, animationsMaxMS),
		AwaitPromise:  new(true),
		ReturnByValue: new(true),
	})
	if err != nil {
		b.log.Debug("waiting for animations before the snapshot", "error", err)
		return
	}
	var ms float64
	if decodeValue(r, &ms) == nil && ms > 0 {
		b.log.Debug("waited for animations before the snapshot", "ms", ms)
	}
}
