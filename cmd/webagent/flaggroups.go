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

// print writes the flags as help shows them: a heading for each group,
// then its flags.
func (g *flagGroups) print() { g.printWhere(func(string) bool { return true }) }

// printWhere writes, grouped, the flags whose names keep keeps.
func (g *flagGroups) printWhere(keep func(name string) bool) {
	w := g.fs.Output()
	first := true
	for _, title := range append(slices.Clone(g.titles), "") {
		in := func(name string) bool { return g.of[name] == title && keep(name) }
		any := false
		g.fs.VisitAll(func(f *flag.Flag) { any = any || in(f.Name) })
		if !any {
			continue
		}
		if !first {
			fmt.Fprintln(w)
		}
		first = false
		if title == "" {
			title = "Other flags"
		}
		fmt.Fprintf(w, "%s:\n", title)
		printFlagsWhere(g.fs, in)
	}
}
