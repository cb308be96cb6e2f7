package main

import (
	"flag"
	"time"

	"github.com/rs/zerolog"

	"github.com/webagent/webagent/llm"
)

// modelFlags are the flags that choose the model, shared by run and eval.
type modelFlags struct {
	model, baseURL, apiKey string
	idle                   time.Duration
}

// register adds the flags; modelHelp and baseHelp say what they mean for
// the command.
func (m *modelFlags) register(fs *flag.FlagSet, modelHelp, baseHelp string) {
	fs.StringVar(&m.model, "model", "", modelHelp)
	fs.StringVar(&m.baseURL, "base-url", "", baseHelp)
	fs.StringVar(&m.apiKey, "api-key", "", "API key (default $OPENAI_API_KEY; local servers need none)")
	fs.DurationVar(&m.idle, "stream-idle-timeout", llm.DefaultInactivity, "end a model response that sends nothing for this long (raise it for a slow local model's first load); 0 disables")
}

func (m *modelFlags) validate() error {
	if m.idle < 0 {
		return usagef("--stream-idle-timeout is %s; use a positive duration such as 2m, or 0 to disable it", m.idle)
	}
	return nil
}

// config is the environment's model configuration overridden by the flags.
func (m *modelFlags) config(log zerolog.Logger) llm.Config {
	cfg := llm.ConfigFromEnv()
	if m.model != "" {
		cfg.Model = m.model
	}
	if m.baseURL != "" {
		cfg.BaseURL = m.baseURL
	}
	if m.apiKey != "" {
		cfg.APIKey = m.apiKey
	}
	cfg.Logger, cfg.Inactivity = log, m.idle
	return cfg
}
