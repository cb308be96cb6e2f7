package suite

import (
	"slices"
	"testing"
)

func TestSelect(t *testing.T) {
	t.Parallel()
	tasks := []*Task{
		{ID: "shop-a", Suite: "shop"}, {ID: "wiki-a", Suite: "wiki"}, {ID: "shop-b", Suite: "shop"},
	}
	ids := func(ts []*Task) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.ID)
		}
		return out
	}
	cases := []struct {
		name                   string
		suites, ids            []string
		want, badSuite, badIDs []string
	}{
		{name: "all", want: []string{"shop-a", "wiki-a", "shop-b"}},
		{name: "a suite", suites: []string{"shop"}, want: []string{"shop-a", "shop-b"}},
		{name: "IDs in task order", ids: []string{"shop-b", "wiki-a"}, want: []string{"wiki-a", "shop-b"}},
		{name: "suite and ID", suites: []string{"shop"}, ids: []string{"wiki-a", "shop-b"}, want: []string{"shop-b"}},
		{name: "nothing matches", suites: []string{"wiki"}, ids: []string{"shop-a"}},
		{name: "unknown", suites: []string{"nope", "shop", "gone"}, ids: []string{"x"},
			badSuite: []string{"nope", "gone"}, badIDs: []string{"x"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, badSuites, badIDs := Select(tasks, c.suites, c.ids)
			if !slices.Equal(ids(got), c.want) || !slices.Equal(badSuites, c.badSuite) || !slices.Equal(badIDs, c.badIDs) {
				t.Errorf("Select(%v, %v) = %v, %v, %v; want %v, %v, %v",
					c.suites, c.ids, ids(got), badSuites, badIDs, c.want, c.badSuite, c.badIDs)
			}
		})
	}
	if got := Suites(tasks); !slices.Equal(got, []string{"shop", "wiki"}) {
		t.Errorf("Suites = %v", got)
	}
}
