package main

import (
	"flag"
	"fmt"
	"slices"
)

// flagGroups registers a command's flags in groups (the launch flags, the
// loop's, the model's, ...), each command composing the groups it reads,
// and prints its help group by group.
type flagGroups struct {
	fs     *flag.FlagSet
	titles []string
	of     map[string]string // a flag's name: its group's title
}

// newFlagGroups starts the flag set of the command name.
func newFlagGroups(name string) (*flag.FlagSet, *flagGroups) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	return fs, &flagGroups{fs: fs, of: map[string]string{}}
}

// add registers, under title, the flags register adds; a title given
// twice gathers both's flags.
func (g *flagGroups) add(title string, register func(fs *flag.FlagSet)) *flagGroups {
	before := map[string]bool{}
	g.fs.VisitAll(func(f *flag.Flag) { before[f.Name] = true })
	register(g.fs)
	g.fs.VisitAll(func(f *flag.Flag) {
		if !before[f.Name] {
			g.of[f.Name] = title
		}
	})
	if !slices.Contains(g.titles, title) {
		g.titles = append(g.titles, title)
	}
	return g
}

// group is the title of the group of the flag name, "" for a flag
// registered outside the groups.
func (g *flagGroups) group(name string) string { return g.of[name] }

// print writes the flags as help shows them: a heading for each group,
// then its flags.
func (g *flagGroups) print() {
	w := g.fs.Output()
	for i, title := range g.titles {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s:\n", title)
		printFlagsWhere(g.fs, func(name string) bool { return g.of[name] == title })
	}
	other := false
	g.fs.VisitAll(func(f *flag.Flag) { other = other || g.of[f.Name] == "" })
	if other {
		fmt.Fprintf(w, "\nOther flags:\n")
		printFlagsWhere(g.fs, func(name string) bool { return g.of[name] == "" })
	}
}
