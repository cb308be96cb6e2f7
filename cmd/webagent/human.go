package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/mattn/go-isatty"
)

// terminalHuman asks questions on the terminal. A read from stdin cannot be
// cancelled, so one reader goroutine feeds lines to whichever question is
// waiting; it ends with the process.
type terminalHuman struct {
	out   io.Writer
	lines chan string
	once  sync.Once
	in    io.Reader
}

// stdinIsTerminal reports whether a person can answer on stdin.
func stdinIsTerminal() bool {
	return isatty.IsTerminal(os.Stdin.Fd()) || isatty.IsCygwinTerminal(os.Stdin.Fd())
}

func newTerminalHuman(in io.Reader, out io.Writer) *terminalHuman {
	return &terminalHuman{in: in, out: out, lines: make(chan string)}
}

func (h *terminalHuman) start() {
	go func() {
		sc := bufio.NewScanner(h.in)
		for sc.Scan() {
			h.lines <- strings.TrimSpace(sc.Text())
		}
		close(h.lines)
	}()
}

// Ask prints the question and waits for a line, or for ctx to end.
func (h *terminalHuman) Ask(ctx context.Context, question string) (string, error) {
	h.once.Do(h.start)
	fmt.Fprintf(h.out, "\nThe agent asks: %s\nYour answer (Enter to send): ", question)
	select {
	case line, ok := <-h.lines:
		if !ok {
			return "", fmt.Errorf("the terminal was closed")
		}
		return line, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
