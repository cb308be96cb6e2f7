package suite

import "slices"

// Select returns the tasks that belong to one of suites and have one of
// ids, in their order; an empty suites or ids selects every suite or every
// ID. It also returns the suites and IDs asked for that no task has, in the
// order given.
func Select(tasks []*Task, suites, ids []string) (selected []*Task, unknownSuites, unknownIDs []string) {
	knownSuites := map[string]bool{}
	knownIDs := map[string]bool{}
	for _, t := range tasks {
		knownSuites[t.Suite] = true
		knownIDs[t.ID] = true
		if (len(suites) == 0 || slices.Contains(suites, t.Suite)) && (len(ids) == 0 || slices.Contains(ids, t.ID)) {
			selected = append(selected, t)
		}
	}
	for _, s := range suites {
		if !knownSuites[s] {
			unknownSuites = append(unknownSuites, s)
		}
	}
	for _, id := range ids {
		if !knownIDs[id] {
			unknownIDs = append(unknownIDs, id)
		}
	}
	return selected, unknownSuites, unknownIDs
}

// Suites returns the names of the suites tasks belong to, sorted, each
// once.
func Suites(tasks []*Task) []string {
	var names []string
	for _, t := range tasks {
		if !slices.Contains(names, t.Suite) {
			names = append(names, t.Suite)
		}
	}
	slices.Sort(names)
	return names
}
