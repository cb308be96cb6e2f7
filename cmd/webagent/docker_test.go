package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDockerImage builds the Dockerfile and runs the demo in it: Debian's
// Chromium starts in the container and the built-in task succeeds. It
// needs a Docker daemon and the base images (or a registry to pull them
// from); without them it is skipped, saying why.
func TestDockerImage(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: building the image takes minutes")
	}
	if _, err := exec.LookPath("docker"); err != nil {
		t.Skip("docker is not installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "docker", "info", "--format", "{{.ServerVersion}}").CombinedOutput(); err != nil {
		t.Skipf("docker is installed but no daemon answers: %s", firstLine(string(out)))
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tag := fmt.Sprintf("webagent-test:%d", time.Now().UnixNano())
	build := exec.CommandContext(ctx, "docker", "build", "-t", tag, root)
	if out, err := build.CombinedOutput(); err != nil {
		s := string(out)
		if strings.Contains(s, "pull access denied") || strings.Contains(s, "failed to resolve source metadata") || strings.Contains(s, "dial tcp") {
			t.Skipf("the base images cannot be pulled here: %s", lastLines(s, 3))
		}
		t.Fatalf("docker build: %v\n%s", err, lastLines(s, 30))
	}
	defer exec.Command("docker", "rmi", "-f", tag).Run()
	rctx, rcancel := context.WithTimeout(ctx, 3*time.Minute)
	defer rcancel()
	out, err := exec.CommandContext(rctx, "docker", "run", "--rm", tag, "demo", "--json").Output()
	var res struct{ Code, Answer string }
	if err != nil || json.Unmarshal(out, &res) != nil || res.Code != "SUCCESS" || !strings.Contains(res.Answer, "$1,234.56") {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("docker run demo: %v\nstdout: %s\nstderr: %s", err, out, lastLines(string(stderr), 20))
	}
	if v, err := exec.CommandContext(rctx, "docker", "run", "--rm", tag, "version").Output(); err != nil || !strings.HasPrefix(string(v), "webagent ") {
		t.Errorf("docker run version: %q %v", v, err)
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
