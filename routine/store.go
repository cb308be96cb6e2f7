package routine

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Format is the manifest format this package writes and reads.
const Format = 1

// ManifestFile is a routine's manifest.
const ManifestFile = "routine.json"

// DraftFile is a routine's pending draft.
const DraftFile = "draft.js"

// Manifest is routine.json.
type Manifest struct {
	Format int `json:"format"`
	// Name is the routine's name: lower-case letters, digits, '-' and
	// '_', starting with a letter (the tool's name is routine_NAME).
	Name string `json:"name"`
	// Description tells a model what the routine does and when to use it.
	Description string `json:"description"`
	// Version is the current version: its program is vVERSION.js.
	Version int `json:"version"`
	// Parameters is the JSON Schema of the values a run is given (an
	// object schema; the program reads them as params.NAME).
	Parameters json.RawMessage `json:"parameters"`
	// Secrets are the names of the secrets the program types, never
	// their values.
	Secrets []string `json:"secrets,omitempty"`
	// Output is the JSON Schema of what a run returns.
	Output json.RawMessage `json:"output,omitempty"`
	// Source is the run it was saved from.
	Source Source `json:"source"`
	// Draft is a healed version waiting for a person's yes (draft.js).
	Draft *Draft `json:"draft,omitempty"`
}

// Source is the run a routine was saved from.
type Source struct {
	Run     string `json:"run"`            // the trace folder or cache entry
	Task    string `json:"task,omitempty"` // its task, secrets masked
	URL     string `json:"url,omitempty"`  // its start URL
	Created string `json:"created"`
}

// Draft is a healed version of a routine, waiting for a person's yes.
type Draft struct {
	// Version is the version it becomes when accepted.
	Version int `json:"version"`
	// From is the version it was healed from.
	From    int    `json:"from"`
	Created string `json:"created"`
	// Heals are the steps repaired, in the program's order.
	Heals []Heal `json:"heals"`
}

// Heal is one step a run repaired.
type Heal struct {
	Line int    `json:"line"` // the program's line (1-based)
	Tool string `json:"tool"`
	Was  string `json:"was"` // the element it looked for: button "Next"
	Now  string `json:"now"` // the element the healer chose: button "Continue"
	Why  string `json:"why"`
	// was and now are the elements, for the draft's line.
	was, now *Target
}

func (h Heal) String() string {
	return fmt.Sprintf("line %d: %s %s → %s", h.Line, h.Tool, h.Was, h.Now)
}

// Routine is a routine's manifest and its current program.
type Routine struct {
	Manifest
	// Program is the current version's code, File its file name in the
	// routine's folder (v1.js).
	Program, File string
	// Dir is the routine's folder; empty for one not stored yet.
	Dir string
}

// ToolName is the routine's name as a model calls it.
func (r *Routine) ToolName() string { return ToolPrefix + strings.ReplaceAll(r.Name, "-", "_") }

// ToolPrefix starts every routine's tool name.
const ToolPrefix = "routine_"

var nameRE = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,47}$`)

// CheckName says what is wrong with a routine's name, or nil.
func CheckName(name string) error {
	if !nameRE.MatchString(name) {
		return &Error{Code: CodeName, Msg: fmt.Sprintf("the routine name %q: use 1 to 48 lower-case letters, digits, '-' or '_', starting with a letter (add-customer)", name)}
	}
	return nil
}

// Store is a folder of routines.
type Store struct{ dir string }

// DefaultDir is the routines folder used when none is given: routines
// under the user's config folder (~/.config/webagent/routines).
func DefaultDir() (string, error) {
	d, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("routine: no config folder to keep routines in (give a folder with --routines): %w", err)
	}
	return filepath.Join(d, "webagent", "routines"), nil
}

// Open returns the store in dir. Nothing is made until a routine is saved:
// a folder that does not exist is an empty store.
func Open(dir string) (*Store, error) {
	if dir == "" {
		return nil, errors.New("routine: no folder given")
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("routine: %s is a file, not a folder of routines", dir)
	}
	return &Store{dir: dir}, nil
}

// Dir is the store's folder.
func (s *Store) Dir() string { return s.dir }

// Names are the routines in the store, in order.
func (s *Store) Names() ([]string, error) {
	ents, err := os.ReadDir(s.dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("routine: %w", err)
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() && nameRE.MatchString(e.Name()) {
			if _, err := os.Stat(filepath.Join(s.dir, e.Name(), ManifestFile)); err == nil {
				out = append(out, e.Name())
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// Load reads a routine: its manifest and its current program. A routine
// that is not in the store is an *Error with CodeNotFound.
func (s *Store) Load(name string) (*Routine, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	dir := filepath.Join(s.dir, name)
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, s.notFound(name)
	}
	if err != nil {
		return nil, fmt.Errorf("routine %s: %w", name, err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, &Error{Code: CodeInvalid, Msg: fmt.Sprintf("%s: %s (run webagent routine check %s)", filepath.Join(dir, ManifestFile), jsonError(data, err), name)}
	}
	if m.Format != Format {
		return nil, &Error{Code: CodeInvalid, Msg: fmt.Sprintf("%s: format %d, this webagent reads format %d", filepath.Join(dir, ManifestFile), m.Format, Format)}
	}
	if m.Name != name {
		return nil, &Error{Code: CodeInvalid, Msg: fmt.Sprintf("%s: its name is %q but its folder is %q; make them the same", filepath.Join(dir, ManifestFile), m.Name, name)}
	}
	file := versionFile(m.Version)
	prog, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return nil, &Error{Code: CodeInvalid, Msg: fmt.Sprintf("routine %s: version %d's program: %v", name, m.Version, err)}
	}
	return &Routine{Manifest: m, Program: string(prog), File: file, Dir: dir}, nil
}

func (s *Store) notFound(name string) error {
	names, _ := s.Names()
	msg := fmt.Sprintf("no routine %q in %s", name, s.dir)
	if len(names) > 0 {
		msg += " (it has: " + strings.Join(names, ", ") + ")"
	} else {
		msg += " (it has none: save one with webagent routine save RUN --name NAME)"
	}
	return &Error{Code: CodeNotFound, Msg: msg}
}

func versionFile(v int) string { return "v" + strconv.Itoa(v) + ".js" }

// Create stores a new routine as version 1. A routine of that name already
// in the store is an *Error (CodeExists): remove its folder first.
func (s *Store) Create(r *Routine) error {
	if err := CheckName(r.Name); err != nil {
		return err
	}
	dir := filepath.Join(s.dir, r.Name)
	if _, err := os.Stat(dir); err == nil {
		return &Error{Code: CodeExists, Msg: fmt.Sprintf("a routine %q is already in %s; choose another --name, or delete %s", r.Name, s.dir, dir)}
	}
	tmp, err := os.MkdirTemp(mkdirs(s.dir), ".save-*")
	if err != nil {
		return fmt.Errorf("routine: %w", err)
	}
	defer os.RemoveAll(tmp)
	r.Format, r.Version = Format, 1
	if err := writeFile(filepath.Join(tmp, versionFile(1)), []byte(r.Program)); err != nil {
		return err
	}
	if err := writeManifest(tmp, &r.Manifest); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("routine: %w", err)
	}
	r.Dir, r.File = dir, versionFile(1)
	return nil
}

// mkdirs makes dir if need be and returns it.
func mkdirs(dir string) string {
	_ = os.MkdirAll(dir, 0o755)
	return dir
}

func writeFile(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("routine: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("routine: %w", err)
	}
	return nil
}

func writeManifest(dir string, m *Manifest) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("routine: %w", err)
	}
	return writeFile(filepath.Join(dir, ManifestFile), append(data, '\n'))
}

// WriteDraft stores program as the routine's draft, healed from its
// current version by heals; a draft already there is replaced.
func (s *Store) WriteDraft(name, program string, heals []Heal) (*Draft, error) {
	r, err := s.Load(name)
	if err != nil {
		return nil, err
	}
	d := &Draft{Version: r.Version + 1, From: r.Version, Created: time.Now().UTC().Format(time.RFC3339), Heals: heals}
	if err := writeFile(filepath.Join(r.Dir, DraftFile), []byte(program)); err != nil {
		return nil, err
	}
	r.Draft = d
	return d, writeManifest(r.Dir, &r.Manifest)
}

// DraftProgram is the routine's draft program; an *Error (CodeNoDraft)
// when it has none.
func (s *Store) DraftProgram(name string) (*Routine, string, error) {
	r, err := s.Load(name)
	if err != nil {
		return nil, "", err
	}
	if r.Draft == nil {
		return r, "", &Error{Code: CodeNoDraft, Msg: fmt.Sprintf("the routine %s has no draft: its version %d is current and nothing was healed since", name, r.Version)}
	}
	data, err := os.ReadFile(filepath.Join(r.Dir, DraftFile))
	if err != nil {
		return r, "", &Error{Code: CodeInvalid, Msg: fmt.Sprintf("routine %s: its draft: %v", name, err)}
	}
	return r, string(data), nil
}

// Accept makes the routine's draft its current version (the versions
// before stay, as vN.js) and returns the routine as it is now.
func (s *Store) Accept(name string) (*Routine, error) {
	r, prog, err := s.DraftProgram(name)
	if err != nil {
		return nil, err
	}
	if err := Validate(r.Manifest, prog); err != nil {
		return nil, err
	}
	v := r.Draft.Version
	if err := writeFile(filepath.Join(r.Dir, versionFile(v)), []byte(prog)); err != nil {
		return nil, err
	}
	r.Version, r.Draft = v, nil
	if err := writeManifest(r.Dir, &r.Manifest); err != nil {
		return nil, err
	}
	_ = os.Remove(filepath.Join(r.Dir, DraftFile))
	return s.Load(name)
}

// Diff is the draft against the current version, as a unified diff a
// person reads before accepting.
func (s *Store) Diff(name string) (string, error) {
	r, prog, err := s.DraftProgram(name)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "routine %s: draft (version %d) against version %d, healed %s\n", name, r.Draft.Version, r.Version, r.Draft.Created)
	for _, h := range r.Draft.Heals {
		fmt.Fprintf(&b, "# %s (%s)\n", h, h.Why)
	}
	b.WriteString(unified(r.File, DraftFile, r.Program, prog))
	return b.String(), nil
}
