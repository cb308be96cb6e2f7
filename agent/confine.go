package agent

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/webagent/webagent/contract"
)

// confine hands the run's navigation policy to the browser: the domain
// lists, the private network guard, and the start URL's host as named by
// the user. A browser that cannot enforce a policy the user asked for ends
// the task before anything is opened.
func (r *run) confine() error {
	p := r.a.cfg.nav
	p.Trusted = nil
	if len(p.Allowed) == 0 {
		// The policy's sites, where the user allowed every site.
		sites, err := sitesOf(r.policy)
		if err != nil {
			return err
		}
		p.Allowed = sites
	}
	if r.task.URL != "" {
		u, err := url.Parse(r.task.URL)
		if err != nil {
			return fmt.Errorf("the start URL %q is not valid: %w", r.task.URL, err)
		}
		if h := strings.ToLower(u.Hostname()); h != "" {
			p.Trusted = append(p.Trusted, h)
		}
	}
	c, ok := r.a.browser.(contract.Confiner)
	if !ok {
		if len(p.Allowed) > 0 || len(p.Blocked) > 0 {
			return errors.New("the browser cannot enforce allowed or blocked domains (it does not implement agent.Confiner)")
		}
		return nil
	}
	return c.Confine(p)
}
