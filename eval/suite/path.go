package suite

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// pathSeg is one step of a state path: a map key, a list index, or a filter
// that picks the first list item whose field equals a value.
type pathSeg struct {
	kind       byte // 'k' key, 'i' index, 'f' filter
	key        string
	index      int
	field, val string
}

func (s pathSeg) String() string {
	switch s.kind {
	case 'i':
		return strconv.Itoa(s.index)
	case 'f':
		return "[" + s.field + "=" + s.val + "]"
	}
	return s.key
}

// parsePath parses a state path:
//
//	orders.0.items.1.name          keys and list indexes (-1 is the last item)
//	users[name=Priya Patel].role   [field=value] picks the first item whose field equals value
//	orders.0.items[1]              [N] is an index too
//
// Keys cannot contain '.', '[' or ']'; filter values can hold anything but ']'.
func parsePath(p string) ([]pathSeg, error) {
	if strings.TrimSpace(p) == "" {
		return nil, fmt.Errorf("the path is empty")
	}
	var segs []pathSeg
	i := 0
	for i < len(p) {
		j := i
		for j < len(p) && p[j] != '.' && p[j] != '[' && p[j] != ']' {
			j++
		}
		if j < len(p) && p[j] == ']' {
			return nil, fmt.Errorf("unexpected ']' at offset %d", j)
		}
		if j > i {
			word := p[i:j]
			if n, err := strconv.Atoi(word); err == nil {
				segs = append(segs, pathSeg{kind: 'i', index: n})
			} else {
				segs = append(segs, pathSeg{kind: 'k', key: word})
			}
		} else if j >= len(p) || p[j] != '[' || len(segs) == 0 {
			return nil, fmt.Errorf("empty step at offset %d", i)
		}
		i = j
		for i < len(p) && p[i] == '[' {
			end := strings.IndexByte(p[i:], ']')
			if end < 0 {
				return nil, fmt.Errorf("'[' at offset %d is not closed", i)
			}
			inner := p[i+1 : i+end]
			if n, err := strconv.Atoi(strings.TrimSpace(inner)); err == nil {
				segs = append(segs, pathSeg{kind: 'i', index: n})
			} else {
				field, val, ok := strings.Cut(inner, "=")
				field = strings.TrimSpace(field)
				if !ok || field == "" {
					return nil, fmt.Errorf("[%s] is neither an index nor a [field=value] filter", inner)
				}
				segs = append(segs, pathSeg{kind: 'f', field: field, val: strings.TrimSpace(val)})
			}
			i += end + 1
		}
		if i < len(p) {
			if p[i] != '.' {
				return nil, fmt.Errorf("expected '.' at offset %d", i)
			}
			i++
			if i == len(p) {
				return nil, fmt.Errorf("the path ends with '.'")
			}
		}
	}
	return segs, nil
}

// lookup follows segs from v. It returns the value and true, or false and
// where the path broke off.
func lookup(v any, segs []pathSeg) (any, bool, string) {
	at := "the state"
	for n, s := range segs {
		switch s.kind {
		case 'k':
			m, ok := v.(map[string]any)
			if !ok {
				if l, isList := v.([]any); isList {
					return nil, false, fmt.Sprintf("%s is a list of %d items, not a map with the key %q", at, len(l), s.key)
				}
				return nil, false, fmt.Sprintf("%s is %s, not a map with the key %q", at, quoteAny(v), s.key)
			}
			x, ok := m[s.key]
			if !ok {
				return nil, false, fmt.Sprintf("%s has no key %q (its keys: %s)", at, s.key, keysOf(m))
			}
			v = x
		case 'i':
			l, ok := v.([]any)
			if !ok {
				return nil, false, fmt.Sprintf("%s is %s, not a list", at, quoteAny(v))
			}
			i := s.index
			if i < 0 {
				i += len(l)
			}
			if i < 0 || i >= len(l) {
				return nil, false, fmt.Sprintf("%s has %d items, so no item %d", at, len(l), s.index)
			}
			v = l[i]
		case 'f':
			l, ok := v.([]any)
			if !ok {
				return nil, false, fmt.Sprintf("%s is %s, not a list to filter", at, quoteAny(v))
			}
			found := false
			for _, item := range l {
				if m, ok := item.(map[string]any); ok {
					if fv, ok := m[s.field]; ok && equalValues(fv, s.val) {
						v, found = item, true
						break
					}
				}
			}
			if !found {
				return nil, false, fmt.Sprintf("no item of %s (%d items) has %s = %q", at, len(l), s.field, s.val)
			}
		}
		at = pathString(segs[:n+1])
	}
	return v, true, ""
}

func pathString(segs []pathSeg) string {
	var b strings.Builder
	for i, s := range segs {
		if i > 0 && s.kind != 'f' {
			b.WriteByte('.')
		}
		b.WriteString(s.String())
	}
	return b.String()
}

func keysOf(m map[string]any) string {
	if len(m) == 0 {
		return "none"
	}
	k := make([]string, 0, len(m))
	for x := range m {
		k = append(k, x)
	}
	sort.Strings(k)
	return strings.Join(k, ", ")
}
