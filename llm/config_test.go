package llm_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/llm"
)

func TestNewRejectsBadConfig(t *testing.T) {
	t.Parallel()
	ok := llm.Config{BaseURL: "http://localhost:11434/v1", Model: "llama3.1"}
	tests := []struct {
		name  string
		edit  func(*llm.Config)
		wants []string
	}{
		{"no model", func(c *llm.Config) { c.Model = "" },
			[]string{"--model", "WEBAGENT_MODEL", "--base-url http://localhost:11434/v1 --model llama3.1"}},
		{"no base URL and no key", func(c *llm.Config) { c.BaseURL = "" }, []string{"--base-url", "OPENAI_API_KEY"}},
		{"relative base URL", func(c *llm.Config) { c.BaseURL = "localhost:11434/v1" }, []string{"not an absolute http(s) URL"}},
		{"ftp base URL", func(c *llm.Config) { c.BaseURL = "ftp://host/v1" }, []string{"not an absolute http(s) URL"}},
		{"password hidden", func(c *llm.Config) { c.BaseURL = "ftp://u:hunter2@host/v1" }, []string{"xxxxx"}},
		{"negative inactivity", func(c *llm.Config) { c.Inactivity = -time.Second }, []string{"Inactivity is -1s", "0 disables"}},
		{"negative base delay", func(c *llm.Config) { c.RetryBaseDelay = -1 }, []string{"RetryBaseDelay"}},
		{"negative max delay", func(c *llm.Config) { c.MaxRetryDelay = -1 }, []string{"MaxRetryDelay"}},
		{"client timeout", func(c *llm.Config) { c.HTTPClient = &http.Client{Timeout: time.Minute} }, []string{"HTTPClient.Timeout"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := ok
			tt.edit(&cfg)
			c, err := llm.New(cfg)
			if c != nil || !errors.Is(err, llm.ErrConfig) {
				t.Fatalf("New = %v, %v; want ErrConfig", c, err)
			}
			for _, w := range tt.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("error shows the password: %v", err)
			}
		})
	}
	// Every problem is reported at once.
	_, err := llm.New(llm.Config{Inactivity: -1})
	if msg := err.Error(); !strings.Contains(msg, "--model") || !strings.Contains(msg, "--base-url") || !strings.Contains(msg, "Inactivity") {
		t.Errorf("error = %v", err)
	}
}

func TestNewDefaults(t *testing.T) {
	t.Parallel()
	c, err := llm.New(llm.Config{APIKey: "k", Model: "gpt-4o-mini"})
	if err != nil {
		t.Fatal(err)
	}
	if c.BaseURL() != llm.DefaultOpenAIBaseURL || c.Model() != "gpt-4o-mini" {
		t.Errorf("BaseURL %q Model %q", c.BaseURL(), c.Model())
	}
	c, err = llm.New(llm.Config{BaseURL: "http://localhost:11434/v1/", Model: "llama3.1", HTTPClient: &http.Client{}})
	if err != nil {
		t.Fatal(err)
	}
	if c.BaseURL() != "http://localhost:11434/v1" {
		t.Errorf("BaseURL %q", c.BaseURL())
	}
}

func TestConfigFromEnv(t *testing.T) {
	// Serial: it sets the environment ConfigFromEnv reads.
	t.Setenv("OPENAI_API_KEY", " sk-env\n")
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("WEBAGENT_MODEL", "gpt-4o-mini")
	cfg := llm.ConfigFromEnv()
	if cfg.APIKey != "sk-env" || cfg.BaseURL != llm.DefaultOpenAIBaseURL || cfg.Model != "gpt-4o-mini" ||
		cfg.Inactivity != llm.DefaultInactivity {
		t.Errorf("cfg = %+v", cfg)
	}

	t.Setenv("OPENAI_API_KEY", "")
	if cfg := llm.ConfigFromEnv(); cfg.BaseURL != "" || cfg.APIKey != "" {
		t.Errorf("keyless cfg = %+v", cfg)
	}
	t.Setenv("OPENAI_BASE_URL", "http://localhost:8000/v1")
	if cfg := llm.ConfigFromEnv(); cfg.BaseURL != "http://localhost:8000/v1" {
		t.Errorf("cfg = %+v", cfg)
	}
}
