package layout

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// maxLines is the house's bound on a product file (CONTRIBUTING.md).
const maxLines = 500

// root is the repository's root: this package is internal/layout.
const root = "../.."

// walk calls each for every file of the repository but those under
// testdata, hidden and vendored folders.
func walk(t *testing.T, each func(path string)) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && p != root && (name == "testdata" || name == "vendor" || name == "node_modules" || strings.HasPrefix(name, ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			each(filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func lines(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(filepath.Join(root, path))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return n
}

// TestProductFilesAreShort: no product file, .go (tests aside) or .js,
// passes maxLines.
func TestProductFilesAreShort(t *testing.T) {
	t.Parallel()
	walk(t, func(p string) {
		product := (strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go")) || strings.HasSuffix(p, ".js")
		if !product {
			return
		}
		if n := lines(t, p); n > maxLines {
			t.Errorf("%s has %d lines, over the house's %d: split it into files with one job each", p, n, maxLines)
		}
	})
}

// packages lists the folders that hold a Go package (a .go file that is
// not a test), relative to the root.
func packages(t *testing.T) []string {
	var pkgs []string
	walk(t, func(p string) {
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			dir := filepath.ToSlash(filepath.Dir(p))
			if !slices.Contains(pkgs, dir) {
				pkgs = append(pkgs, dir)
			}
		}
	})
	slices.Sort(pkgs)
	return pkgs
}

// mapped lists the folders the first column of CONTRIBUTING.md's "Where
// things are" table names (`path/`, several to a row).
func mapped(t *testing.T) []string {
	raw, err := os.ReadFile(filepath.Join(root, "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	start := strings.Index(text, "## Where things are")
	if start < 0 {
		t.Fatal(`CONTRIBUTING.md has no "## Where things are" section`)
	}
	section := text[start:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	pathRE := regexp.MustCompile("`([a-z0-9_/.-]+)/`")
	var dirs []string
	for line := range strings.SplitSeq(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 3 {
			continue
		}
		for _, m := range pathRE.FindAllStringSubmatch(cells[1], -1) {
			dirs = append(dirs, m[1])
		}
	}
	return dirs
}

// TestPackageMap: CONTRIBUTING.md's map names every package, and only
// packages that exist.
func TestPackageMap(t *testing.T) {
	t.Parallel()
	pkgs, dirs := packages(t), mapped(t)
	for _, p := range pkgs {
		if !slices.Contains(dirs, p) {
			t.Errorf("package %s/ is missing from CONTRIBUTING.md's \"Where things are\": add a row that says what it does", p)
		}
	}
	for _, d := range dirs {
		if !slices.Contains(pkgs, d) {
			t.Errorf("CONTRIBUTING.md's \"Where things are\" names %s/, which holds no package: remove or fix the row", d)
		}
	}
}
