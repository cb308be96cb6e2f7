// Package lockedproc starts a child process whose parent-death signal
// (syscall.SysProcAttr.Pdeathsig) means the death of this process, not of
// one of its threads.
//
// Linux sends the parent-death signal when the thread that forked the child
// ends, not the process. Go ends a thread when a goroutine locked to it
// (runtime.LockOSThread) returns still locked, as browser/launcher's
// goroutine of each Chromium does when that Chromium exits; if an earlier
// child was forked from that same thread, it is killed then, long before
// this process dies (a Temporal dev server or a model server killed in the
// middle of a test). A child started here is forked from a thread locked
// for as long as the child lives, which no other goroutine can take, and
// waited for there.
package lockedproc

import (
	"os/exec"
	"runtime"
)

// Start starts cmd on an OS thread of its own and returns Start's error.
// The thread stays locked, and cmd is waited for on it; waited is called
// there with Wait's error once the child has exited. A caller must not call
// cmd.Wait itself.
func Start(cmd *exec.Cmd, waited func(error)) error {
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		// The thread is the child's alone: it ends with this goroutine,
		// still locked, once the child has exited.
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		waited(cmd.Wait())
	}()
	return <-started
}
