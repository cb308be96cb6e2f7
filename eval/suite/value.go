package suite

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Value helpers: the values checks compare (state in its JSON form, numbers
// and text as answers write them), and how messages quote them.

// normalize returns v in its JSON form: maps, slices, float64, string,
// bool, nil. Values that do not marshal are kept as they are.
func normalize(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return v
	}
	return out
}

// equalValues compares a state value with an expected one: numbers by value
// (a numeric string equals its number), other scalars by their text, lists
// and maps item by item.
func equalValues(got, want any) bool {
	got, want = normalize(got), normalize(want)
	switch w := want.(type) {
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !equalValues(g[i], w[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok || !equalValues(gv, wv) {
				return false
			}
		}
		return true
	}
	switch got.(type) {
	case []any, map[string]any:
		return false
	}
	if got == nil || want == nil {
		return got == nil && want == nil
	}
	gf, gok := numeric(got)
	wf, wok := numeric(want)
	if gok && wok {
		return gf == wf
	}
	return scalarString(got) == scalarString(want)
}

// numeric returns v as a number: a float64, or a string that is one.
func numeric(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil && strings.TrimSpace(x) != ""
	}
	return 0, false
}

func toFloat(v any) float64 {
	f, _ := numeric(normalize(v))
	return f
}

func scalarString(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case float64:
		return fmtNum(x)
	case bool:
		return strconv.FormatBool(x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func quoteAny(v any) string {
	b, err := json.Marshal(normalize(v))
	if err != nil {
		return fmt.Sprint(v)
	}
	s := string(b)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

func length(v any) (int, bool) {
	switch x := v.(type) {
	case []any:
		return len(x), true
	case map[string]any:
		return len(x), true
	case string:
		return len([]rune(x)), true
	}
	return 0, false
}

func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case float64:
		return x != 0 && !math.IsNaN(x)
	case int:
		return x != 0
	case string:
		return x != ""
	}
	return true
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func joinNums(ns []float64) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmtNum(n)
	}
	return strings.Join(s, ", ")
}

// collapse trims s and turns every run of white space into one space.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// normText is an answer as answer_equals compares it: collapsed, lower
// case, without a final full stop.
func normText(s string) string {
	return strings.TrimSuffix(strings.ToLower(collapse(s)), ".")
}

var numberRe = regexp.MustCompile(`-?[0-9][0-9,]*(?:\.[0-9]+)?|-?\.[0-9]+`)

// numbersIn returns the numbers written in s: "$1,234.50" is 1234.5. A
// minus sign right after a letter or digit is a hyphen ("SO-1001" is 1001).
func numbersIn(s string) []float64 {
	var out []float64
	for _, loc := range numberRe.FindAllStringIndex(s, -1) {
		m := s[loc[0]:loc[1]]
		if m[0] == '-' && loc[0] > 0 && isAlnum(s[loc[0]-1]) {
			m = m[1:]
		}
		m = strings.TrimRight(strings.ReplaceAll(m, ",", ""), ".")
		if f, err := strconv.ParseFloat(m, 64); err == nil {
			out = append(out, f)
		}
	}
	return out
}

func isAlnum(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}
