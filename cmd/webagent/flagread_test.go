package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// flagCommand is a command whose flags TestEveryFlagIsRead walks: its
// flag set and what it parses into, and the function that runs it.
type flagCommand struct {
	name  string
	entry string // the function that runs the command, e.g. cmdRun
	flags func() (*flag.FlagSet, any)
}

func flagCommands() []flagCommand {
	wrap := func(fs *flag.FlagSet, o any) (*flag.FlagSet, any) { return fs, o }
	cmds := []flagCommand{
		{"run", "cmdRun", func() (*flag.FlagSet, any) { return wrap(runFlags()) }},
		{"demo", "cmdDemo", func() (*flag.FlagSet, any) { return wrap(demoFlags()) }},
		{"bench", "cmdBench", func() (*flag.FlagSet, any) { return wrap(benchFlags()) }},
		{"eval", "cmdEval", func() (*flag.FlagSet, any) { return wrap(evalFlags()) }},
		{"eval judge", "cmdEvalJudge", func() (*flag.FlagSet, any) { return wrap(evalJudgeFlags()) }},
		{"eval compare", "cmdCompare", nil},
		{"eval export", "cmdEvalExport", nil},
		{"show-trace", "cmdShowTrace", func() (*flag.FlagSet, any) { return wrap(showTraceFlags()) }},
		{"replay", "cmdReplay", func() (*flag.FlagSet, any) { return wrap(replayFlags()) }},
		{"console", "cmdConsole", func() (*flag.FlagSet, any) { return wrap(consoleFlags()) }},
		{"mcp", "cmdMCP", func() (*flag.FlagSet, any) { return wrap(mcpFlags()) }},
		{"worker", "cmdWorker", func() (*flag.FlagSet, any) { return wrap(workerFlags()) }},
		{"submit", "cmdSubmit", func() (*flag.FlagSet, any) { return wrap(submitFlags()) }},
		{"bot-key", "cmdBotKey", func() (*flag.FlagSet, any) { return wrap(botKeyFlags()) }},
		{"skill", "cmdSkill", func() (*flag.FlagSet, any) { return wrap(skillFlags()) }},
		{"passkeys", "cmdPasskeys", func() (*flag.FlagSet, any) { return passkeysFlags(), nil }},
	}
	for _, name := range []string{"status", "cancel", "answer"} {
		entry := "cmd" + strings.ToUpper(name[:1]) + name[1:]
		cmds = append(cmds, flagCommand{name, entry, func() (*flag.FlagSet, any) { return wrap(idFlags(name, name)) }})
	}
	for _, c := range browserCommands() {
		cmds = append(cmds, flagCommand{"browser " + c.Name, "cmdBrowser", func() (*flag.FlagSet, any) { return wrap(browserFlagSet(c)) }})
	}
	return cmds
}

// Every flag a command registers is read by the command: setting it
// changes a field of what its flag set parses into, and code the command
// runs reads that field (found by type-checking this package's source;
// the code of other packages is not looked into: a field handed to them
// counts as read). A flag added and never read, or registered by a command
// that never reads it, fails here.
func TestEveryFlagIsRead(t *testing.T) {
	t.Parallel()
	pkg := loadOwnSource(t)
	for _, c := range flagCommands() {
		if c.flags == nil {
			pkg.checkLocalFlags(t, c.name, c.entry)
			continue
		}
		reads := pkg.readsFrom(c.entry)
		fs, o := c.flags()
		if o == nil {
			n := 0
			fs.VisitAll(func(*flag.Flag) { n++ })
			if n > 0 {
				t.Errorf("%s: %d flags and nothing they parse into", c.name, n)
			}
			continue
		}
		if reflect.Indirect(reflect.ValueOf(o)).Kind() != reflect.Struct {
			// A flag's own value (skill's *string): the entry reads it.
			if !pkg.derefsSecondResult(c.entry) {
				t.Errorf("%s: %s never reads the value its flag set parses into", c.name, c.entry)
			}
			continue
		}
		fs.VisitAll(func(f *flag.Flag) {
			if f.Name == configFlag {
				if !reads.funcs["applyConfig"] {
					t.Errorf("%s registers --config, which it never applies", c.name)
				}
				return
			}
			dests := destinations(c, f.Name)
			if len(dests) == 0 {
				t.Errorf("%s --%s: setting it changes nothing the command parses into", c.name, f.Name)
				return
			}
			for _, d := range dests {
				v, rest := pkg.field(o, d)
				switch {
				case v == nil:
					t.Errorf("%s --%s: no field %s in this package's source", c.name, f.Name, strings.Join(d, "."))
				case !reads.fields[v], len(rest) > 0 && !reads.whole[v] && !reads.names[rest[0]]:
					t.Errorf("%s --%s sets %s, which the command never reads: drop the flag from %s, or use it", c.name, f.Name, strings.Join(d, "."), c.name)
				}
			}
		})
	}
}

// destinations are the paths of the fields that setting the flag name
// changes, compared with a fresh flag set: the first of a few values that
// the flag takes and that changes something.
func destinations(c flagCommand, name string) [][]string {
	_, before := c.flags()
	for _, v := range []string{"true", "false", "0.5", "7", "7s", "recover", "anthropic", "native", "marks", "a=b", "A: b", `{"a":1}`, "x"} {
		fs, after := c.flags()
		if fs.Set(name, v) != nil {
			continue
		}
		var out [][]string
		diff(reflect.ValueOf(before), reflect.ValueOf(after), nil, &out)
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// diff appends to out the paths of the fields where a and b differ, as
// deep as structs go.
func diff(a, b reflect.Value, path []string, out *[][]string) {
	switch {
	case a.Kind() == reflect.Pointer && !a.IsNil() && !b.IsNil():
		diff(a.Elem(), b.Elem(), path, out)
	case a.Kind() == reflect.Struct:
		for i := range a.NumField() {
			if !equal(a.Field(i), b.Field(i), 0) {
				diff(a.Field(i), b.Field(i), append(slices.Clone(path), a.Type().Field(i).Name), out)
			}
		}
	case !equal(a, b, 0):
		*out = append(*out, path)
	}
}

// equal compares values field by field, unexported ones too.
func equal(a, b reflect.Value, depth int) bool {
	if depth > 8 {
		return true
	}
	switch a.Kind() {
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return equal(a.Elem(), b.Elem(), depth+1)
	case reflect.Slice, reflect.Array:
		if a.Kind() == reflect.Slice && a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !equal(a.Index(i), b.Index(i), depth+1) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			if bv := b.MapIndex(k); !bv.IsValid() || !equal(a.MapIndex(k), bv, depth+1) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !equal(a.Field(i), b.Field(i), depth+1) {
				return false
			}
		}
		return true
	}
	return true // funcs, channels
}

// ownSource is this package's source, type-checked without its imports:
// its own types, fields and functions are known, other packages' are not.
type ownSource struct {
	fset  *token.FileSet
	pkg   *types.Package
	info  *types.Info
	funcs map[string]*ast.FuncDecl // by name; methods as Type.name
	objs  map[*types.Func]string
}

type noImports struct{}

func (noImports) Import(path string) (*types.Package, error) {
	return nil, fmt.Errorf("%s is not loaded", path)
}

func loadOwnSource(t *testing.T) *ownSource {
	t.Helper()
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, p, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: noImports{}, Error: func(error) {}} // the imports' errors, and what follows from them
	pkg, _ := conf.Check("main", fset, files, info)
	s := &ownSource{fset: fset, pkg: pkg, info: info, funcs: map[string]*ast.FuncDecl{}, objs: map[*types.Func]string{}}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			key := fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				key = recvName(fd.Recv.List[0].Type) + "." + key
			}
			s.funcs[key] = fd
			if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
				s.objs[fn] = key
			}
		}
	}
	if len(s.funcs) < 100 {
		t.Fatalf("only %d functions found in this package's source", len(s.funcs))
	}
	return s
}

func recvName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return recvName(x.X)
	case *ast.Ident:
		return x.Name
	case *ast.IndexExpr:
		return recvName(x.X)
	}
	return ""
}

// reads are the fields read and the functions run from an entry function.
type reads struct {
	fields map[*types.Var]bool
	// whole are the fields read as a whole value (handed on), not only
	// selected from (o.limits.Effective()).
	whole map[*types.Var]bool
	// names are the names selected from values of other packages' types.
	names map[string]bool
	funcs map[string]bool
}

// readsFrom walks the functions entry calls, or names (a method value),
// transitively, and gathers the fields they read: a field selected
// anywhere but as an assignment's target or under & (a flag's
// registration), and not only checked (validate functions).
func (s *ownSource) readsFrom(entry string) reads {
	r := reads{fields: map[*types.Var]bool{}, whole: map[*types.Var]bool{}, names: map[string]bool{}, funcs: map[string]bool{}}
	todo := []string{entry}
	for len(todo) > 0 {
		name := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		fd := s.funcs[name]
		if fd == nil || r.funcs[name] {
			continue
		}
		r.funcs[name] = true
		notRead, selectedFrom := map[ast.Expr]bool{}, map[ast.Expr]bool{}
		read, derives := map[*types.Var]bool{}, false
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.AssignStmt:
				if x.Tok == token.ASSIGN || x.Tok == token.DEFINE {
					for _, l := range x.Lhs {
						notRead[l] = true
						if sel, ok := l.(*ast.SelectorExpr); ok && s.info.Selections[sel] != nil {
							derives = true
						}
					}
				}
			case *ast.UnaryExpr:
				if x.Op == token.AND {
					notRead[x.X] = true
				}
			case *ast.SelectorExpr:
				selectedFrom[x.X] = true
				sel := s.info.Selections[x]
				if sel != nil && sel.Kind() == types.FieldVal && !notRead[x] {
					read[sel.Obj().(*types.Var)] = true
					if !selectedFrom[x] {
						r.whole[sel.Obj().(*types.Var)] = true
					}
				}
				if sel == nil && !notRead[x] {
					r.names[x.Sel.Name] = true
				}
			case *ast.Ident:
				if fn, ok := s.info.Uses[x].(*types.Func); ok {
					if key, ok := s.objs[fn.Origin()]; ok {
						todo = append(todo, key)
					}
				}
			}
			return true
		})
		// A check alone is no use: what a validate function reads counts
		// when it also derives a value from it (a viewport's width).
		if fn := name[strings.LastIndex(name, ".")+1:]; !strings.HasPrefix(fn, "validate") || derives {
			maps.Copy(r.fields, read)
		}
	}
	return r
}

// field finds the field at path in o's type, as deep as this package's
// struct types go, and the rest of the path: a field of another package's
// type (agent.Limits) counts as reading its field rest[0] when it is
// handed on whole, or rest[0] is selected somewhere.
func (s *ownSource) field(o any, path []string) (*types.Var, []string) {
	rt := reflect.TypeOf(o)
	for rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	obj, _ := s.pkg.Scope().Lookup(rt.Name()).(*types.TypeName)
	if obj == nil {
		return nil, nil
	}
	var v *types.Var
	typ := obj.Type()
	for i, name := range path {
		st, ok := ownStruct(s.pkg, typ)
		if !ok {
			return v, path[i:]
		}
		var next *types.Var
		for i := range st.NumFields() {
			if st.Field(i).Name() == name {
				next = st.Field(i)
			}
		}
		if next == nil {
			return nil, nil
		}
		v, typ = next, next.Type()
	}
	return v, nil
}

// derefsSecondResult reports whether the entry function dereferences
// the second of two results it assigns from a call (fs, dir := skillFlags()).
func (s *ownSource) derefsSecondResult(entry string) bool {
	fd := s.funcs[entry]
	if fd == nil {
		return false
	}
	var v types.Object
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			if id, ok := x.Lhs[len(x.Lhs)-1].(*ast.Ident); ok && len(x.Lhs) == 2 && v == nil {
				v = s.info.Defs[id]
			}
		case *ast.StarExpr:
			if id, ok := x.X.(*ast.Ident); ok && v != nil && s.info.Uses[id] == v {
				found = true
			}
		}
		return true
	})
	return found
}

// ownStruct is typ's struct, when typ is (a pointer to) a struct type of
// this package.
func ownStruct(pkg *types.Package, typ types.Type) (*types.Struct, bool) {
	if p, ok := typ.(*types.Pointer); ok {
		typ = p.Elem()
	}
	n, ok := typ.(*types.Named)
	if !ok || n.Obj().Pkg() != pkg {
		return nil, false
	}
	st, ok := n.Underlying().(*types.Struct)
	return st, ok
}

// checkLocalFlags checks a command whose flags live in its entry
// function's variables (x := fs.String("name", ...)): each is used there.
func (s *ownSource) checkLocalFlags(t *testing.T, name, entry string) {
	t.Helper()
	fd := s.funcs[entry]
	if fd == nil {
		t.Errorf("%s: no function %s", name, entry)
		return
	}
	vars := map[types.Object]string{}
	used := map[types.Object]bool{}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			if len(x.Lhs) != 1 || len(x.Rhs) != 1 {
				return true
			}
			call, ok := x.Rhs[0].(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "NewFlagSet" {
				return true
			}
			if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if id, ok := x.Lhs[0].(*ast.Ident); ok && s.info.Defs[id] != nil {
					vars[s.info.Defs[id]] = strings.Trim(lit.Value, `"`)
				}
			}
		case *ast.Ident:
			if o := s.info.Uses[x]; o != nil {
				used[o] = true
			}
		}
		return true
	})
	if len(vars) == 0 {
		t.Errorf("%s: no flag found in %s", name, entry)
	}
	for v, flagName := range vars {
		if !used[v] {
			t.Errorf("%s --%s is never read", name, flagName)
		}
	}
}
