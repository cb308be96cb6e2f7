package suite

import (
	"fmt"
	"sort"
	"testing"

	"github.com/webagent/webagent/eval/sites"
)

func TestBuiltin(t *testing.T) {
	t.Parallel()
	tasks, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) < 40 {
		t.Fatalf("%d built-in tasks, want at least 40", len(tasks))
	}
	type stats struct{ tasks, minSteps, maxSteps int }
	per := map[string]*stats{}
	longest := 0
	for _, tk := range tasks {
		if tk.Reference == nil {
			t.Errorf("%s has no reference", tk.ID)
			continue
		}
		if _, err := sites.New(tk.Site); err != nil {
			t.Errorf("%s: %v", tk.ID, err)
		}
		// Tasks on sites with state are judged by it, not by words alone.
		hasState := false
		for _, c := range tk.Checks {
			hasState = hasState || c.Kind == KindState
		}
		if tk.Site != "wiki" && !hasState {
			t.Errorf("%s (site %s) has no state check", tk.ID, tk.Site)
		}
		steps := 0
		for _, turn := range tk.Reference.Turns {
			for _, s := range turn.Steps {
				if verbs[s.Verb].tool != "" {
					steps++
				}
			}
		}
		st := per[tk.Site]
		if st == nil {
			st = &stats{minSteps: steps}
			per[tk.Site] = st
		}
		st.tasks++
		st.minSteps, st.maxSteps = min(st.minSteps, steps), max(st.maxSteps, steps)
		longest = max(longest, steps)
	}
	names := make([]string, 0, len(per))
	for n := range per {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Logf("%-8s %2d tasks, %2d to %2d tool calls", n, per[n].tasks, per[n].minSteps, per[n].maxSteps)
	}
	for _, n := range []string{"shop", "webmail", "booking", "wiki", "admin", "widgets", "apps"} {
		if per[n] == nil || per[n].tasks < 5 {
			t.Errorf("site %s has too few tasks: %v", n, fmt.Sprint(per[n]))
		}
	}
	if longest <= 10 {
		t.Errorf("the longest reference has %d tool calls; want one over 10", longest)
	}
}

// The apps suite is in-page work: every task stays on its one document
// (no goto, no back), takes five steps or more, and needs several turns
// because what it acts on appears only after its earlier steps.
func TestBuiltinInPage(t *testing.T) {
	t.Parallel()
	tasks, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, tk := range tasks {
		if tk.Suite != "apps" {
			continue
		}
		n++
		steps := 0
		for _, turn := range tk.Reference.Turns {
			for _, s := range turn.Steps {
				if s.Verb == "goto" || s.Verb == "back" {
					t.Errorf("%s line %d: %s leaves the document", tk.ID, turn.Line, s.Verb)
				}
				if verbs[s.Verb].tool != "" && !verbs[s.Verb].final {
					steps++
				}
			}
		}
		if steps < 5 || len(tk.Reference.Turns) < 5 {
			t.Errorf("%s: %d steps in %d turns; want 5 or more of each", tk.ID, steps, len(tk.Reference.Turns))
		}
	}
	if n < 6 || n > 8 {
		t.Errorf("the apps suite has %d tasks; want 6 to 8", n)
	}
}
