// Package layout holds no code: its tests check the repository's house
// rules that no compiler or linter sees. No product file, Go or page
// JavaScript, passes 500 lines; and CONTRIBUTING.md's map of the packages
// ("Where things are") names every package there is and no other, so that
// it cannot drift from the tree.
package layout
