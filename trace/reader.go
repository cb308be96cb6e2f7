package trace

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Trace is a trace read back.
type Trace struct {
	Dir    string
	Header Header
	Models []ModelEvent
	Steps  []StepEvent
	End    *EndEvent // nil when the run did not end (killed, or still running)
}

// FormatError says which line of a trace could not be read, and why.
type FormatError struct {
	Path string
	Line int // 1-based; 0 for the file as a whole
	Msg  string
}

func (e *FormatError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.Path, e.Msg)
	}
	return fmt.Sprintf("%s line %d: %s", e.Path, e.Line, e.Msg)
}

// ErrTruncated is wrapped by the error of a trace whose last line is cut
// short (the run was killed while writing). Read still returns the events
// before it.
var ErrTruncated = errors.New("trace truncated")

// maxLine bounds one event line.
const maxLine = 64 << 20

// Read reads the trace in dir. A trace whose last line is cut short is
// returned with an error wrapping ErrTruncated; any other damage is a
// *FormatError naming the line.
func Read(dir string) (*Trace, error) {
	path := filepath.Join(dir, EventsFile)
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s is not a trace: it has no %s (write one with webagent run --trace DIR): %w", dir, EventsFile, err)
		}
		return nil, fmt.Errorf("reading the trace: %w", err)
	}
	defer f.Close()
	t := &Trace{Dir: dir}
	r := bufio.NewReaderSize(f, 1<<20)
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		eof := err != nil
		if len(line) > maxLine {
			return nil, &FormatError{path, n, fmt.Sprintf("a line of %d bytes is longer than any event", len(line))}
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			if eof {
				break
			}
			continue
		}
		if perr := t.add(line, n == 1); perr != nil {
			if eof && !json.Valid(line) {
				// The last line, without its newline and not JSON: the
				// writer was cut short.
				return t, fmt.Errorf("%s line %d is cut short; the events before it are read (%d steps): %w", path, n, len(t.Steps), ErrTruncated)
			}
			return nil, &FormatError{path, n, perr.Error()}
		}
		if eof {
			break
		}
	}
	if t.Header.Version == 0 {
		return nil, &FormatError{path, 0, "the file is empty: the run that should have written it never started"}
	}
	return t, nil
}

// add reads one line.
func (t *Trace) add(line []byte, first bool) error {
	var raw rawEvent
	if err := json.Unmarshal(line, &raw); err != nil {
		return fmt.Errorf("not a JSON event (%v): the file is damaged", err)
	}
	if first != (raw.Type == TypeHeader) {
		if first {
			return fmt.Errorf("the first event is %q, not the header: this is not a webagent trace, or its start is missing", raw.Type)
		}
		return errors.New("a second header: two traces were written into one file")
	}
	var err error
	switch raw.Type {
	case TypeHeader:
		if raw.Version != Version {
			return fmt.Errorf("format version %d; this webagent reads version %d (use the webagent that wrote it)", raw.Version, Version)
		}
		err = json.Unmarshal(line, &t.Header)
	case TypeModel:
		var ev ModelEvent
		err = json.Unmarshal(line, &ev)
		t.Models = append(t.Models, ev)
	case TypeStep:
		var ev StepEvent
		err = json.Unmarshal(line, &ev)
		t.Steps = append(t.Steps, ev)
	case TypeShot:
		var ev ShotEvent
		if err = json.Unmarshal(line, &ev); err == nil {
			for i := len(t.Steps) - 1; i >= 0; i-- {
				if t.Steps[i].Iteration == ev.Iteration {
					t.Steps[i].Screenshot, t.Steps[i].ShotError = ev.Screenshot, ev.Error
					break
				}
			}
		}
	case TypeEnd:
		var ev EndEvent
		err = json.Unmarshal(line, &ev)
		t.End = &ev
	default:
		// An event type this version does not know: skipped, so that
		// later writers may add some.
	}
	if err != nil {
		return fmt.Errorf("a %s event that does not fit the format: %v", raw.Type, err)
	}
	return nil
}

// Model returns the model event of an iteration (the last one, if the
// iteration asked twice), or nil.
func (t *Trace) Model(iter int) *ModelEvent {
	for i := len(t.Models) - 1; i >= 0; i-- {
		if t.Models[i].Iteration == iter {
			return &t.Models[i]
		}
	}
	return nil
}
