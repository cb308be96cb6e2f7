package trace

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

//go:embed viewer.html
var viewerHTML string

// dataMark is where the viewer's data goes.
const dataMark = "/*TRACE_DATA*/null"

// WriteViewer (re)writes index.html in a trace folder from its events. The
// page embeds the events, refers to the screenshots by relative path, and
// needs no server or network. A truncated trace gets a viewer of the steps
// that were written.
func WriteViewer(dir string) error {
	t, err := Read(dir)
	if err != nil && !errors.Is(err, ErrTruncated) {
		return err
	}
	page, verr := Viewer(t)
	if verr != nil {
		return verr
	}
	if werr := os.WriteFile(filepath.Join(dir, ViewerFile), page, 0o644); werr != nil {
		return fmt.Errorf("writing the viewer: %w", werr)
	}
	return err
}

// Viewer renders the viewer page of a trace.
func Viewer(t *Trace) ([]byte, error) {
	data, err := json.Marshal(struct {
		Header Header       `json:"header"`
		Models []ModelEvent `json:"models"`
		Steps  []StepEvent  `json:"steps"`
		End    *EndEvent    `json:"end"`
	}{t.Header, t.Models, t.Steps, t.End})
	if err != nil {
		return nil, fmt.Errorf("rendering the viewer: %w", err)
	}
	// json.Marshal escapes <, > and &: the data cannot close the script.
	return []byte(strings.Replace(viewerHTML, dataMark, string(data), 1)), nil
}
