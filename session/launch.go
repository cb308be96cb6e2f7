package session

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// launchDiffers refuses a request that gives a launch setting this
// session did not start with: the setting would be ignored, and the
// command act in a browser other than the one asked for.
func (s *server) launchDiffers(req Request) (Reply, bool) {
	var names []string
	for k, v := range req.Launch {
		if s.cfg.Launch[k] != v {
			names = append(names, "--"+k)
		}
	}
	if len(names) == 0 {
		return Reply{}, false
	}
	slices.Sort(names)
	name := cmp.Or(s.cfg.Name, "default")
	verb := "apply"
	if len(names) == 1 {
		verb = "applies"
	}
	r := invalid(fmt.Sprintf("%s %s when a session starts, and session %s runs with other settings (those of its first command): close it (webagent browser --session %s close) and run this command again to start it so, or leave them out to use it as it runs",
		strings.Join(names, ", "), verb, name, name))
	r.Code = "LAUNCH_SETTINGS"
	return r, true
}
