package launcher

import "golang.org/x/sys/unix"

// A browser never outranks the program that drives it. Chromium raises the
// priority of its busiest threads (a page's main thread, its compositor,
// its I/O threads: nice -8) where it may, and as root it may. On a busy
// machine, or beside a page whose script spins, those threads then take
// the processor from the program whose timers end a task at its bound, and
// the exit comes seconds late. keepBelow takes that right from the browser
// before it starts: its threads keep the program's priority, or lower.

// keepBelow drops CAP_SYS_NICE from the calling thread's capability
// bounding set, so that a program it starts (which inherits the set, and
// gets no capability outside it, root or not) cannot raise its priority.
// The caller's thread must be locked and used for nothing else: the set
// cannot be given back. Without the right to drop it (not root), the
// program started has no CAP_SYS_NICE to drop.
func keepBelow() {
	_ = unix.Prctl(unix.PR_CAPBSET_DROP, unix.CAP_SYS_NICE, 0, 0, 0)
}
