package launcher

import (
	"bufio"
	"io"
	"log/slog"
	"strings"
	"sync"
)

// output reads what Chromium prints on its own pipe (stdout and stderr
// alike): it logs each line, sends the DevTools address on url once it is
// printed, and keeps the first lines for the error of a start that fails.
// done is closed when the output has ended, that is when every process
// holding the pipe (the browser and its helpers) has exited, or Close
// closed it.
type output struct {
	log  *slog.Logger
	url  chan string // buffered 1
	done chan struct{}

	mu    sync.Mutex
	first []string
}

func newOutput(log *slog.Logger) *output {
	return &output{log: log, url: make(chan string, 1), done: make(chan struct{})}
}

// read reads r until it ends.
func (o *output) read(r io.Reader) {
	defer close(o.done)
	sc := bufio.NewScanner(r)
	sent := false
	for sc.Scan() {
		line := sc.Text()
		if o.log != nil && strings.TrimSpace(line) != "" {
			o.log.Debug(strings.TrimSpace(line), "source", "chromium")
		}
		if sent {
			continue
		}
		if i := strings.Index(line, "ws://"); i >= 0 && strings.Contains(line, "DevTools listening") {
			o.url <- strings.TrimSpace(line[i:])
			sent = true
			continue
		}
		o.mu.Lock()
		if len(o.first) < maxOutputLines {
			o.first = append(o.first, line)
		}
		o.mu.Unlock()
	}
}

// printed is the first lines the browser printed, other than its address.
func (o *output) printed() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return strings.Join(o.first, "\n")
}
