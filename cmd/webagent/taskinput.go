package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/webagent/webagent/agent"
)

// maxTaskBytes bounds a task read from a file or stdin.
const maxTaskBytes = 1 << 20

// taskText is the task: the positional words, or the contents of
// --task-file, or stdin when the task (or the file) is "-".
func taskText(pos []string, file string, stdin io.Reader) (string, error) {
	if len(pos) == 1 && pos[0] == "-" {
		if file != "" {
			return "", usagef("give the task once: with --task-file or as -, not both")
		}
		file = "-"
	}
	if file == "" {
		return strings.TrimSpace(strings.Join(pos, " ")), nil
	}
	if len(pos) > 0 && !(len(pos) == 1 && pos[0] == "-") {
		return "", usagef("give the task once: with --task-file %s or on the command line, not both", file)
	}
	var r io.Reader = stdin
	what := "stdin"
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return "", usagef("--task-file: %v", err)
		}
		defer f.Close()
		r, what = f, file
	}
	b, err := io.ReadAll(io.LimitReader(r, maxTaskBytes+1))
	if err != nil {
		return "", usagef("reading the task from %s: %v", what, err)
	}
	if len(b) > maxTaskBytes {
		return "", usagef("the task in %s is longer than %d bytes", what, maxTaskBytes)
	}
	task := strings.TrimSpace(string(b))
	if task == "" {
		return "", usagef("the task read from %s is empty; write the task in plain words there", what)
	}
	return task, nil
}

// checkSecretRefs refuses a task that refers to a secret no --secret
// declares, and notes on stderr a declared secret the task does not name
// (the model is still told it may use it).
func checkSecretRefs(task string, secrets map[string]string, stderr io.Writer) error {
	if err := agent.CheckTask(agent.Task{Instruction: task, Secrets: secrets}); err != nil {
		return usagef("%v", err)
	}
	used := agent.SecretsNamed(task)
	var unused []string
	for name := range secrets {
		if !slices.Contains(used, name) {
			unused = append(unused, name)
		}
	}
	slices.Sort(unused)
	for _, name := range unused {
		fmt.Fprintf(stderr, "webagent: warning: the task does not mention <secret>%s</secret>; --secret %s is offered to the model anyway\n", name, name)
	}
	return nil
}
