package console

import (
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/cache"
	"github.com/webagent/webagent/trace"
)

// maxShot bounds a screenshot the console serves (the trace writer keeps
// them under 300 KB).
const maxShot = 8 << 20

// step is one step of a past run as its page shows it: what the loop
// recorded (the model's words, the tool calls and their outcomes, the
// timings), whether it has a screenshot, and what became of its model
// call.
type step struct {
	agent.Step
	Shot      bool   `json:"shot"`
	ShotError string `json:"shot_error,omitempty"`
	// ModelMS and ModelError are the step's model call's; ModelReplayed
	// is set when its reply came from a recording (the run cache).
	ModelMS       int64  `json:"model_ms,omitempty"`
	ModelError    string `json:"model_error,omitempty"`
	ModelReplayed bool   `json:"model_replayed,omitempty"`
}

// runPage is a past run with its steps.
type runPage struct {
	Run     Run    `json:"run"`
	Steps   []step `json:"steps"`
	Command string `json:"command"` // replay it from a terminal
	Rerun   string `json:"rerun"`   // run its task again with a model
}

// readRun reads the trace of the run id.
func (s *Server) readRun(id string) (string, *trace.Trace, int, string) {
	dir, ok := s.runs.dir(id)
	if !ok {
		return "", nil, http.StatusNotFound, "no such run in the console's folders (it was moved or removed?)"
	}
	t, err := trace.Read(dir)
	if err != nil && !errors.Is(err, trace.ErrTruncated) {
		return "", nil, http.StatusUnprocessableEntity, err.Error()
	}
	return dir, t, http.StatusOK, ""
}

func (s *Server) serveRun(w http.ResponseWriter, r *http.Request) {
	dir, t, code, msg := s.readRun(r.PathValue("id"))
	if t == nil {
		http.Error(w, msg, code)
		return
	}
	p := runPage{Run: Run{ID: runID(dir), Dir: dir, Kind: KindTrace}, Steps: make([]step, 0, len(t.Steps))}
	fill(&p.Run, t)
	if _, err := os.Stat(filepath.Join(dir, cache.EntryFile)); err == nil {
		p.Run.Kind = KindCache
	}
	for _, ev := range t.Steps {
		st := step{Step: ev.Step, Shot: ev.Screenshot != "", ShotError: ev.ShotError}
		if m := t.Model(ev.Iteration); m != nil && len(ev.Step.Actions) > 0 && ev.Step.Actions[0].Tool != agent.ToolTakeover {
			st.ModelMS, st.ModelError, st.ModelReplayed = m.MS, m.Error, m.Replayed
		}
		p.Steps = append(p.Steps, st)
	}
	p.Command = replayCommand(dir, t.Header.Secrets)
	p.Rerun = rerunCommand(t.Header)
	writeJSON(w, http.StatusOK, p)
}

// serveShot serves the screenshot of a run's step (by its index), from
// the run's own folder: the trace names it, and a name that leads out of
// the folder is refused.
func (s *Server) serveShot(w http.ResponseWriter, r *http.Request) {
	dir, t, code, msg := s.readRun(r.PathValue("id"))
	if t == nil {
		http.Error(w, msg, code)
		return
	}
	i, err := strconv.Atoi(r.PathValue("step"))
	if err != nil || i < 0 || i >= len(t.Steps) || t.Steps[i].Screenshot == "" {
		http.Error(w, "this step has no screenshot", http.StatusNotFound)
		return
	}
	name := filepath.FromSlash(t.Steps[i].Screenshot)
	if !filepath.IsLocal(name) || !strings.HasSuffix(strings.ToLower(name), ".jpg") {
		http.Error(w, "the trace names a screenshot outside its folder", http.StatusForbidden)
		return
	}
	// os.OpenInRoot refuses a path, or a link, that leads out of dir.
	f, err := os.OpenInRoot(dir, name)
	if err != nil {
		http.Error(w, "the screenshot cannot be read (removed, or the cache kept only the steps)", http.StatusNotFound)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "image/jpeg")
	_, _ = io.Copy(w, io.LimitReader(f, maxShot))
}

// shellQuote quotes a word for a POSIX shell where it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@,+%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// replayCommand is the command line that replays the trace in dir from a
// terminal, its secrets passed from the environment.
func replayCommand(dir string, secrets []string) string {
	words := []string{"webagent", "replay", "--live"}
	for _, n := range secrets {
		words = append(words, "--secret", shellQuote(n+"=env:"+envName(n)))
	}
	return strings.Join(append(words, shellQuote(dir)), " ")
}

// rerunCommand runs the recorded task again with a model (it costs what a
// run costs; a secret it typed needs its value again).
func rerunCommand(h trace.Header) string {
	words := []string{"webagent", "run", "--live"}
	if h.URL != "" {
		words = append(words, "--url", shellQuote(h.URL))
	}
	for _, n := range h.Secrets {
		words = append(words, "--secret", shellQuote(n+"=env:"+envName(n)))
	}
	return strings.Join(append(words, shellQuote(h.Task)), " ")
}

// envName is the variable a command line reads a secret from.
func envName(secret string) string {
	return "WEBAGENT_SECRET_" + strings.ToUpper(strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, secret))
}
