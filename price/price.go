package price

import (
	_ "embed"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/internal/yamlfile"
)

// Price is one model's row of a table: US dollars per million tokens.
type Price struct {
	Model string `json:"model"`
	// Input is the price of a prompt token, CachedInput of a prompt token
	// read from the provider's cache (Input when the row gives none),
	// Output of a completion token (reasoning tokens included).
	Input       float64 `json:"input"`
	CachedInput float64 `json:"cached_input"`
	Output      float64 `json:"output"`
	// Date is when the price was checked (YYYY-MM-DD), Source where.
	Date   string `json:"date,omitempty"`
	Source string `json:"source,omitempty"`
	// File and Line locate the row.
	File string `json:"-"`
	Line int    `json:"-"`
}

// Cost is what u costs at p, in US dollars: the prompt tokens not read
// from the cache at Input, the cached ones at CachedInput, the completion
// tokens at Output.
func (p Price) Cost(u contract.Usage) float64 {
	cached := min(max(u.CachedTokens, 0), u.PromptTokens)
	fresh := u.PromptTokens - cached
	return (float64(fresh)*p.Input + float64(cached)*p.CachedInput + float64(u.CompletionTokens)*p.Output) / 1e6
}

// Table is a set of prices by model. Its methods may be called
// concurrently; it does not change once made.
type Table struct {
	rows map[string]Price // by key(model)
}

// Lookup returns the price of model: the row of that name, else of the
// name without a provider's prefix ("openai/"), else without a date or
// "-latest" suffix. Case, and a dot for a dash, do not matter.
func (t *Table) Lookup(model string) (Price, bool) {
	if t == nil {
		return Price{}, false
	}
	k := key(model)
	if p, ok := t.rows[k]; ok {
		return p, true
	}
	if i := strings.LastIndex(k, "/"); i >= 0 {
		k = k[i+1:]
		if p, ok := t.rows[k]; ok {
			return p, true
		}
	}
	if s := dateSuffix.ReplaceAllString(k, ""); s != k {
		if p, ok := t.rows[s]; ok {
			return p, true
		}
	}
	return Price{}, false
}

// Cost is what u costs with model, in US dollars; false when the table
// has no price for the model.
func (t *Table) Cost(model string, u contract.Usage) (float64, bool) {
	p, ok := t.Lookup(model)
	if !ok {
		return 0, false
	}
	return p.Cost(u), true
}

// Prices returns the rows, sorted by model.
func (t *Table) Prices() []Price {
	if t == nil {
		return nil
	}
	out := make([]Price, 0, len(t.rows))
	for _, p := range t.rows {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b Price) int { return strings.Compare(a.Model, b.Model) })
	return out
}

// Merge returns a table with the rows of t and of o; o's row wins for a
// model both have.
func (t *Table) Merge(o *Table) *Table {
	m := &Table{rows: map[string]Price{}}
	for _, x := range []*Table{t, o} {
		if x == nil {
			continue
		}
		for k, p := range x.rows {
			m.rows[k] = p
		}
	}
	return m
}

// key is a model name as rows are matched: lower case, dots as dashes.
func key(model string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(model)), ".", "-")
}

// dateSuffix is a model version's date or alias at the end of its name.
var dateSuffix = regexp.MustCompile(`(-\d{4}-\d{2}-\d{2}|-\d{8}|-latest)$`)

//go:embed prices.yaml
var defaultPrices []byte

var (
	defaultOnce  sync.Once
	defaultTable *Table
)

// Default is the table webagent ships, with a date and a source on every
// row.
func Default() *Table {
	defaultOnce.Do(func() {
		t, err := Parse("prices.yaml (built in)", defaultPrices)
		if err != nil {
			panic(err) // a test reads it; it cannot be broken in a release
		}
		defaultTable = t
	})
	return defaultTable
}

// Error is a price file that cannot be used. Its message names the file
// and the line and says what to write instead. It is the one file-position
// error of webagent's YAML files (a policy's is the same type).
type Error = yamlfile.Error

// Load reads the price file at path (see Parse).
func Load(path string) (*Table, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &Error{File: path, Msg: fmt.Sprintf("cannot read the price file: %v", err), Err: err}
	}
	return Parse(path, data)
}

// Fields of a price file.
var (
	topFields = []string{"prices"}
	rowFields = []string{"model", "input", "cached_input", "output", "date", "source"}
)

// Parse reads a price table in YAML; name is the file's name, for errors.
// Its error is an *Error.
func Parse(name string, data []byte) (*Table, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &Error{File: name, Line: yamlfile.Line(err), Msg: "not valid YAML: " + strings.TrimPrefix(err.Error(), "yaml: "), Err: err}
	}
	if len(doc.Content) == 0 {
		return nil, &Error{File: name, Msg: "the file is empty; write prices: and a list of rows such as - {model: gpt-4.1, input: 2.00, output: 8.00}"}
	}
	p := &parser{file: name}
	return p.table(doc.Content[0])
}

type parser struct{ file string }

func (p *parser) errf(n *yaml.Node, format string, args ...any) error {
	return &Error{File: p.file, Line: n.Line, Msg: fmt.Sprintf(format, args...)}
}

// fields walks a mapping's keys, refusing unknown ones with the closest
// known name.
func (p *parser) fields(n *yaml.Node, what string, known []string, each func(key string, v *yaml.Node) error) error {
	return yamlfile.Fields(n, what, known, p.errf, func(k, v *yaml.Node) error { return each(k.Value, v) })
}

func (p *parser) table(root *yaml.Node) (*Table, error) {
	var list *yaml.Node
	err := p.fields(root, "the price file", topFields, func(_ string, v *yaml.Node) error {
		if v.Kind != yaml.SequenceNode {
			return p.errf(v, "prices must be a list: each row starts with - model: NAME")
		}
		list = v
		return nil
	})
	if err != nil {
		return nil, err
	}
	if list == nil {
		return nil, p.errf(root, "the file has no prices: list; write prices: and rows such as - {model: gpt-4.1, input: 2.00, output: 8.00}")
	}
	t := &Table{rows: map[string]Price{}}
	for _, n := range list.Content {
		row, err := p.row(n)
		if err != nil {
			return nil, err
		}
		k := key(row.Model)
		if old, dup := t.rows[k]; dup {
			return nil, p.errf(n, "model %q has a row already, at line %d; keep one", row.Model, old.Line)
		}
		t.rows[k] = row
	}
	return t, nil
}

// row reads one price row.
func (p *parser) row(n *yaml.Node) (Price, error) {
	r := Price{File: p.file, Line: n.Line, CachedInput: -1}
	var have []string
	err := p.fields(n, "a price row", rowFields, func(key string, v *yaml.Node) error {
		have = append(have, key)
		if v.Kind != yaml.ScalarNode {
			return p.errf(v, "%s must be a single value", key)
		}
		switch key {
		case "model":
			r.Model = strings.TrimSpace(v.Value)
			if r.Model == "" {
				return p.errf(v, "model is empty; write the model's name as its API takes it, e.g. gpt-4.1")
			}
		case "input", "cached_input", "output":
			f, err := strconv.ParseFloat(strings.TrimPrefix(strings.TrimSpace(v.Value), "$"), 64)
			if err != nil || f < 0 {
				return p.errf(v, "%s %q is not a price; write US dollars per million tokens, e.g. 2.50", key, v.Value)
			}
			switch key {
			case "input":
				r.Input = f
			case "cached_input":
				r.CachedInput = f
			default:
				r.Output = f
			}
		case "date":
			if _, err := time.Parse(time.DateOnly, v.Value); err != nil {
				return p.errf(v, "date %q is not a day; write YYYY-MM-DD, the day the price was checked", v.Value)
			}
			r.Date = v.Value
		case "source":
			r.Source = strings.TrimSpace(v.Value)
		}
		return nil
	})
	if err != nil {
		return r, err
	}
	for _, need := range []string{"model", "input", "output"} {
		if !slices.Contains(have, need) {
			return r, p.errf(n, "the row has no %s; a row needs model, input and output (cached_input, date and source are optional)", need)
		}
	}
	if r.CachedInput < 0 {
		r.CachedInput = r.Input
	}
	return r, nil
}
