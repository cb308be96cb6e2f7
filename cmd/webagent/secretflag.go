package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/webagent/webagent/secret"
)

// secretFlag collects --secret NAME=VALUE.
type secretFlag []string

func (s *secretFlag) String() string { return "" }

func (s *secretFlag) Set(v string) error {
	name, _, ok := strings.Cut(v, "=")
	if !ok || name == "" {
		return fmt.Errorf("--secret wants NAME=VALUE (or NAME=env:VAR, NAME=totp:BASE32KEY), got %q", redactArg(v))
	}
	*s = append(*s, v)
	return nil
}

func redactArg(v string) string {
	name, _, _ := strings.Cut(v, "=")
	return name + "=…"
}

func (s secretFlag) resolve() (map[string]string, error) {
	m := map[string]string{}
	for _, v := range s {
		name, val, _ := strings.Cut(v, "=")
		if env, ok := strings.CutPrefix(val, "env:"); ok {
			ev, set := os.LookupEnv(env)
			if !set || ev == "" {
				return nil, usagef("--secret %s=env:%s: the environment variable %s is not set", name, env, env)
			}
			val = ev
		}
		if val == "" {
			return nil, usagef("--secret %s has an empty value", name)
		}
		if _, _, err := secret.ParseKey(name); err != nil {
			return nil, usagef("--secret: %v", err)
		}
		if secret.IsOTP(val) {
			if _, err := secret.ParseOTP(val); err != nil {
				return nil, usagef("--secret %s: %v", name, err)
			}
		}
		m[name] = val
	}
	return m, nil
}
