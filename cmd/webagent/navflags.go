package main

import (
	"flag"
	"os"

	"github.com/webagent/webagent/contract"
)

// navFlags are the flags and environment that confine where the agent may
// go: --allowed-domains, --blocked-domains, --allow-private-network.
type navFlags struct {
	allowed, blocked listFlag
	allowPrivate     bool
	// policy is the one value the flags give, built by validate.
	policy contract.NavigationPolicy
}

func (n *navFlags) register(fs *flag.FlagSet) {
	fs.Var(&n.allowed, "allowed-domains", "the only sites the agent may open: comma-separated or repeated patterns example.com, *.example.com, http://localhost:3000 (default $WEBAGENT_ALLOWED_DOMAINS; none: any site)")
	fs.Var(&n.blocked, "blocked-domains", "sites the agent may never open, same patterns (default $WEBAGENT_BLOCKED_DOMAINS)")
	fs.BoolVar(&n.allowPrivate, "allow-private-network", false, "let the agent open loopback, LAN, link-local and metadata addresses it was not given (by default only the start URL's host and the allowed domains may be private)")
}

// validate parses the patterns; the environment stands in for a flag not
// given.
func (n *navFlags) validate() error {
	allowed, blocked := []string(n.allowed), []string(n.blocked)
	if len(allowed) == 0 {
		allowed = []string{os.Getenv("WEBAGENT_ALLOWED_DOMAINS")}
	}
	if len(blocked) == 0 {
		blocked = []string{os.Getenv("WEBAGENT_BLOCKED_DOMAINS")}
	}
	var err error
	p := contract.NavigationPolicy{AllowPrivateNetwork: n.allowPrivate}
	if p.Allowed, err = contract.ParseDomainPatterns(allowed...); err != nil {
		return usagef("--allowed-domains: %v", err)
	}
	if p.Blocked, err = contract.ParseDomainPatterns(blocked...); err != nil {
		return usagef("--blocked-domains: %v", err)
	}
	n.policy = p
	return nil
}
