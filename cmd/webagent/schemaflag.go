package main

import (
	"encoding/json"
	"os"

	"github.com/webagent/webagent/agent"
)

// readSchema reads and checks --schema FILE; nil when not given.
func readSchema(path string) (json.RawMessage, error) {
	if path == "" {
		return nil, nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("--schema: %v", err)
	}
	if err := agent.CheckAnswerSchema(raw); err != nil {
		return nil, usagef("--schema %s: %v", path, err)
	}
	return raw, nil
}
