package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/webagent/webagent/internal/neterr"
	"github.com/webagent/webagent/llm"
)

// modelFlags are the flags that choose the model, shared by run and eval.
type modelFlags struct {
	model, baseURL, apiKey string
	idle                   time.Duration
	toolMode               string
	// Sampling parameters: nil when not given, so that a 0 is sent as 0.
	temperature, topP *float32
	maxTokens, seed   *int
}

// register adds the flags; modelHelp and baseHelp say what they mean for
// the command.
func (m *modelFlags) register(fs *flag.FlagSet, modelHelp, baseHelp string) {
	fs.StringVar(&m.model, "model", "", modelHelp)
	fs.StringVar(&m.baseURL, "base-url", "", baseHelp)
	fs.StringVar(&m.apiKey, "api-key", "", "API key (default $OPENAI_API_KEY; local servers need none)")
	fs.DurationVar(&m.idle, "stream-idle-timeout", llm.DefaultInactivity, "end a model response that sends nothing for this long (raise it for a slow local model's first load); 0 disables")
	fs.StringVar(&m.toolMode, "tool-mode", llm.ToolModeAuto, "how tools are offered: auto (native, and described in the prompt if the server refuses tools), native, or prompt (for models without tool support)")
	fs.Func("temperature", "sampling temperature, sent exactly (0 included); default the server's", floatFlag("--temperature", 0, 2, &m.temperature))
	fs.Func("top-p", "nucleus sampling top_p, sent exactly; default the server's", floatFlag("--top-p", 0, 1, &m.topP))
	fs.Func("max-tokens", "cap on the tokens of one reply (max_tokens); default the server's", intFlag("--max-tokens", 1, &m.maxTokens))
	fs.Func("seed", "sampling seed, for reproducible runs where the server supports it", intFlag("--seed", math.MinInt32, &m.seed))
}

func floatFlag(name string, lo, hi float64, dst **float32) func(string) error {
	return func(s string) error {
		v, err := strconv.ParseFloat(s, 32)
		if err != nil || v < lo || v > hi {
			return fmt.Errorf("%s %q: give a number from %g to %g", name, s, lo, hi)
		}
		f := float32(v)
		*dst = &f
		return nil
	}
}

func intFlag(name string, lo int, dst **int) func(string) error {
	return func(s string) error {
		v, err := strconv.Atoi(s)
		if err != nil || v < lo {
			return fmt.Errorf("%s %q: give a whole number of at least %d", name, s, lo)
		}
		*dst = &v
		return nil
	}
}

func (m *modelFlags) validate() error {
	if m.idle < 0 {
		return usagef("--stream-idle-timeout is %s; use a positive duration such as 2m, or 0 to disable it", m.idle)
	}
	switch m.toolMode {
	case llm.ToolModeAuto, llm.ToolModeNative, llm.ToolModePrompt:
	default:
		return usagef("--tool-mode is %q; use auto, native or prompt", m.toolMode)
	}
	return nil
}

// config is the environment's model configuration overridden by the flags.
func (m *modelFlags) config(log *slog.Logger) llm.Config {
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
	cfg.ToolMode = m.toolMode
	cfg.Temperature, cfg.TopP, cfg.MaxTokens, cfg.Seed = m.temperature, m.topP, m.maxTokens, m.seed
	return cfg
}

// pingError says what a failed preflight of the model server means and
// what to do, once, for the server the user meant: keyed says a key was
// sent, keyEnv is the variable a key may come from, notAPI the client's
// error for a server without its API.
func pingError(ctx context.Context, base string, keyed bool, keyEnv string, notAPI, err error) error {
	var le *llm.Error
	switch {
	case errors.Is(err, llm.ErrUnauthorized) && !keyed:
		return usagef("the model server at %s wants an API key and none was sent; pass --api-key KEY or set %s", base, keyEnv)
	case errors.Is(err, llm.ErrUnauthorized):
		why := ""
		if errors.As(err, &le) && le.Message != "" {
			why = ": " + le.Message
		}
		return usagef("the model server at %s refused the API key that was sent (%d%s); check --api-key or %s", base, statusOf(err), why, keyEnv)
	case errors.Is(err, notAPI):
		return usagef("the model server at %s: %s", base, strings.TrimPrefix(err.Error(), notAPI.Error()+": "))
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, context.DeadlineExceeded):
		return usagef("the model server at %s did not answer within 10s; %s", base, endpointHint(base))
	case errors.Is(err, llm.ErrUnreachable):
		return usagef("cannot reach the model server at %s (%s); %s", base, neterr.Reason(err), endpointHint(base))
	default:
		return usagef("the model server at %s: %v", base, err)
	}
}

func statusOf(err error) int {
	var le *llm.Error
	if errors.As(err, &le) {
		return le.Status
	}
	return 0
}

// endpointHint is what to check when the model server at base cannot be
// reached: Ollama's port gets `ollama serve`, OpenAI's API the network,
// another local port its server, anything else the address.
func endpointHint(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return "check --base-url or OPENAI_BASE_URL"
	}
	host, port := u.Hostname(), u.Port()
	local := host == "localhost" || net.ParseIP(host).IsLoopback()
	switch {
	case local && port == "11434":
		return "is Ollama running? Start it with `ollama serve`"
	case host == "api.openai.com":
		return "check this machine's network and proxy settings (HTTPS_PROXY)"
	case local:
		return "is the model server running on port " + port + "? Start it, or point --base-url (or OPENAI_BASE_URL) at the one that is"
	default:
		return "check the address in --base-url (or OPENAI_BASE_URL) and this machine's network"
	}
}
