// animations.js waits, in the page, until the CSS animations and transitions and
// Web Animations that are running and about to end (within a second) have
// finished, and then for one frame, so that the snapshot does not show an
// accordion half-open or a menu half-closed. It waits at most maxMS and not
// at all when nothing moves; endless animations (spinners) and long ones
// (marquees) are not waited for. It resolves to the milliseconds waited.
(async (maxMS) => {
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
})
