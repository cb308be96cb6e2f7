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

	"github.com/webagent/webagent/agent"
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

// Confirm asks whether an action the policy wants confirmed may run
// (agent.Confirmer): a line yes, y, allow or ok is a yes, anything else a
// no. Lines typed before the question are dropped first, so an answer
// meant for an earlier question never allows this action.
func (h *terminalHuman) Confirm(ctx context.Context, c agent.Confirmation) (bool, error) {
	h.once.Do(h.start)
	for drained := false; !drained; {
		select {
		case _, ok := <-h.lines:
			drained = !ok
		default:
			drained = true
		}
	}
	fmt.Fprintf(h.out, "\nThe policy asks: %s\nYour answer (yes or no, then Enter): ", c.Question)
	select {
	case line, ok := <-h.lines:
		if !ok {
			return false, fmt.Errorf("the terminal was closed")
		}
		return agent.IsYes(line), nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

// eitherHuman asks a and b at once and takes the first answer (the
// terminal and the live view); with one of them nil, the other alone.
func eitherHuman(a, b agent.Human) agent.Human { return agent.EitherHuman(a, b) }
