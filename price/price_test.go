package price_test

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/price"
)

// TestDefaultTable: every shipped row is dated and sourced, and a few
// prices are what their vendor lists.
func TestDefaultTable(t *testing.T) {
	rows := price.Default().Prices()
	if len(rows) < 15 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, p := range rows {
		if p.Date == "" || !strings.HasPrefix(p.Source, "https://") || p.Output <= 0 || p.CachedInput > p.Input {
			t.Errorf("row %+v: needs a date, a source and prices", p)
		}
	}
	p, ok := price.Default().Lookup("gpt-4.1")
	if !ok || p.Input != 2 || p.CachedInput != 0.5 || p.Output != 8 {
		t.Errorf("gpt-4.1: %+v %v", p, ok)
	}
}

// TestCost works an example by hand: 1,000,000 prompt tokens of which
// 600,000 cached and 10,000 completion tokens of gpt-4.1 cost
// 0.4 M × $2 + 0.6 M × $0.50 + 0.01 M × $8 = $0.80 + $0.30 + $0.08 = $1.18.
func TestCost(t *testing.T) {
	u := contract.Usage{PromptTokens: 1_000_000, CachedTokens: 600_000, CompletionTokens: 10_000}
	got, ok := price.Default().Cost("gpt-4.1", u)
	if !ok || math.Abs(got-1.18) > 1e-9 {
		t.Errorf("cost %v %v, want 1.18", got, ok)
	}
	if _, ok := price.Default().Cost("reference", u); ok {
		t.Error("a model the table does not know has a price")
	}
}

func TestLookupNames(t *testing.T) {
	tab := price.Default()
	for _, name := range []string{"gpt-4.1", "GPT-4.1", "openai/gpt-4.1", "gpt-4.1-2025-04-14", "gpt-4.1-latest"} {
		if p, ok := tab.Lookup(name); !ok || p.Model != "gpt-4.1" {
			t.Errorf("%s: %+v %v", name, p, ok)
		}
	}
	if p, ok := tab.Lookup("anthropic/claude-sonnet-4.5"); !ok || p.Model != "claude-sonnet-4-5" {
		t.Errorf("claude-sonnet-4.5: %+v %v", p, ok)
	}
	if p, ok := tab.Lookup("claude-sonnet-4-20250514"); !ok || p.Model != "claude-sonnet-4" {
		t.Errorf("dated claude: %+v %v", p, ok)
	}
	for _, name := range []string{"gpt-4", "gpt-4.1-mini-x", "llama3.1", ""} {
		if p, ok := tab.Lookup(name); ok {
			t.Errorf("%q matched %+v", name, p)
		}
	}
}

func TestMergeOverrides(t *testing.T) {
	mine, err := price.Parse("mine.yaml", []byte("prices:\n  - {model: gpt-4.1, input: 1, output: 4}\n  - {model: llama3.1, input: 0, output: 0}\n"))
	if err != nil {
		t.Fatal(err)
	}
	tab := price.Default().Merge(mine)
	if p, _ := tab.Lookup("gpt-4.1"); p.Input != 1 || p.CachedInput != 1 || p.File != "mine.yaml" {
		t.Errorf("override: %+v", p)
	}
	if c, ok := tab.Cost("llama3.1", contract.Usage{PromptTokens: 5000}); !ok || c != 0 {
		t.Errorf("a free local model: %v %v", c, ok)
	}
	if _, ok := tab.Lookup("gpt-4o"); !ok {
		t.Error("the default rows are gone")
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		line       int
		want       string
	}{
		{"typo", "prices:\n  - model: gpt-x\n    input: 1\n    ouptut: 2\n", 4, `unknown field "ouptut"; did you mean "output"?`},
		{"top typo", "price:\n  - {model: a, input: 1, output: 2}\n", 1, `did you mean "prices"?`},
		{"not a number", "prices:\n  - {model: a, input: cheap, output: 2}\n", 2, `input "cheap" is not a price`},
		{"negative", "prices:\n  - {model: a, input: 1, output: -2}\n", 2, `output "-2" is not a price`},
		{"no output", "prices:\n  - {model: a, input: 1}\n", 2, "the row has no output"},
		{"bad date", "prices:\n  - {model: a, input: 1, output: 2, date: 14/04/2025}\n", 2, "YYYY-MM-DD"},
		{"duplicate", "prices:\n  - {model: a, input: 1, output: 2}\n  - {model: A, input: 1, output: 3}\n", 3, "at line 2"},
		{"not yaml", "prices: [\n", 0, "not valid YAML"},
		{"empty", "", 0, "the file is empty"},
		{"not a list", "prices: {model: a}\n", 1, "prices must be a list"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := price.Parse("p.yaml", []byte(tc.yaml))
			var pe *price.Error
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) || (tc.line > 0 && pe.Line != tc.line) {
				t.Fatalf("err = %v, want line %d saying %q", err, tc.line, tc.want)
			}
			if tc.line > 0 && !strings.HasPrefix(err.Error(), "p.yaml:") {
				t.Errorf("err %q does not start with the file and line", err)
			}
		})
	}
	_, err := price.Load(filepath.Join(t.TempDir(), "none.yaml"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
