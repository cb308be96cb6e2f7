package launcher

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The sweep removes the folders of an owner that has ended, and keeps those
// of a running owner (this process, or a process that took over a dead
// owner's id) and those that name no owner.
func TestSweepLeftovers(t *testing.T) {
	base := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip(err)
	}
	mk := func(name, owner string) string {
		d := filepath.Join(base, name)
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if owner != "" {
			if err := os.WriteFile(filepath.Join(d, ownerFile), []byte(owner), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	gone := mk(ProfilePrefix+"gone", fmt.Sprintf("%d 1\n", dead.Process.Pid))
	goneTmp := mk(TempPrefix+"gone", fmt.Sprintf("%d 1\n", dead.Process.Pid))
	reused := mk(ProfilePrefix+"reused", fmt.Sprintf("%d 1\n", os.Getpid())) // our id, another start time
	mine := mk(ProfilePrefix+"mine", selfOwner())
	unowned := mk(ProfilePrefix+"unowned", "")
	other := mk("other-gone", fmt.Sprintf("%d 1\n", dead.Process.Pid))
	if n := SweepLeftovers(base); n != 3 {
		t.Errorf("swept %d folders, want 3", n)
	}
	for d, keep := range map[string]bool{gone: false, goneTmp: false, reused: false, mine: true, unowned: true, other: true} {
		if _, err := os.Stat(d); (err == nil) != keep {
			t.Errorf("%s: kept %v, want %v", filepath.Base(d), err == nil, keep)
		}
	}
}
