package script

import (
	"runtime"
	"runtime/metrics"
	"sync"
)

// The interpreter has no memory limit of its own, so a run watches the
// process's live heap: at the end of every garbage collection (an event,
// not a timer: a program that allocates fast makes them come fast) it reads
// the live heap, and when it has grown past the limit since the run began,
// the run is interrupted. The figure is the process's, so other work
// counts too; the limit is far above what the rest of the process grows
// by during one script. A string made in one step (repeat, padStart,
// padEnd) has its own bound, checked before it is made, and the typed
// arrays that allocate a whole buffer at once are not offered.

const liveHeap = "/gc/heap/live:bytes"

func readLive() uint64 {
	s := []metrics.Sample{{Name: liveHeap}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// watchMemory calls over, at most once, when the live heap has grown by
// more than limit bytes since the call; the returned func stops watching.
func watchMemory(limit int64, over func(grew uint64)) (stop func()) {
	base := readLive()
	var mu sync.Mutex
	done := false
	var arm func()
	arm = func() {
		sentinel := new([16]byte)
		runtime.AddCleanup(sentinel, func(struct{}) {
			mu.Lock()
			defer mu.Unlock()
			if done {
				return
			}
			if now := readLive(); now > base && int64(now-base) > limit {
				done = true
				over(now - base)
				return
			}
			arm()
		}, struct{}{})
	}
	mu.Lock()
	arm()
	mu.Unlock()
	return func() {
		mu.Lock()
		done = true
		mu.Unlock()
	}
}
