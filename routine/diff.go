package routine

import (
	"fmt"
	"strings"
)

// unified is a unified diff of two texts, line by line, with three lines
// of context: what a person reads before accepting a draft.
func unified(aName, bName, a, b string) string {
	x, y := strings.Split(strings.TrimSuffix(a, "\n"), "\n"), strings.Split(strings.TrimSuffix(b, "\n"), "\n")
	ops := lineOps(x, y)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", aName, bName)
	const ctx = 3
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-ctx, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run-end > 2*ctx || run == len(ops) {
				end = min(end+ctx, len(ops))
				break
			}
			end = run
		}
		ai, bi, an, bn := ops[start].i+1, ops[start].j+1, 0, 0
		for _, o := range ops[start:end] {
			if o.kind != '+' {
				an++
			}
			if o.kind != '-' {
				bn++
			}
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", ai, an, bi, bn)
		for _, o := range ops[start:end] {
			line := ""
			if o.kind == '+' {
				line = y[o.j]
			} else {
				line = x[o.i]
			}
			fmt.Fprintf(&out, "%c%s\n", o.kind, line)
		}
		i = end
	}
	return out.String()
}

// lineOp is one line of an edit script: ' ' kept, '-' removed, '+'
// added; i and j are its places in the old and new texts (for '+', i is
// where the old text stands).
type lineOp struct {
	kind byte
	i, j int
}

// lineOps is the shortest edit script from x to y (longest common
// subsequence; routines are short).
func lineOps(x, y []string) []lineOp {
	n, m := len(x), len(y)
	l := make([][]int, n+1)
	for i := range l {
		l[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var ops []lineOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			ops = append(ops, lineOp{' ', i, j})
			i, j = i+1, j+1
		case i < n && (j == m || l[i+1][j] >= l[i][j+1]):
			ops = append(ops, lineOp{'-', i, j})
			i++
		default:
			ops = append(ops, lineOp{'+', i, j})
			j++
		}
	}
	return ops
}
