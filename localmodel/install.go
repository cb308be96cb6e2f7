package localmodel

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

const (
	// InstallCommand installs the server and the model (from the
	// repository's root).
	InstallCommand = "./setup.sh --local-model"
	// DirEnv names the variable that moves the install folder.
	DirEnv = "WEBAGENT_LOCALMODEL_DIR"
	// serverName is the server's binary in the folder's bin/.
	serverName = "llama-server"
)

// ErrNotInstalled is the error of [Find] when the folder lacks the server
// or a model.
var ErrNotInstalled = errors.New("the local model is not installed")

// Install is what the install command put in its folder.
type Install struct {
	Dir    string // the folder
	Server string // llama-server
	Model  string // the model's GGUF file
	Name   string // the model's name, the GGUF file's without its extension
}

// DefaultDir is the install folder: $WEBAGENT_LOCALMODEL_DIR, else
// webagent/localmodel in the user's cache folder ($XDG_CACHE_HOME, else
// ~/.cache), where the install command puts it.
func DefaultDir() string {
	if d := os.Getenv(DirEnv); d != "" {
		return d
	}
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			home = os.TempDir()
		}
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "webagent", "localmodel")
}

// Find returns what is installed in dir ("" for [DefaultDir]): the server
// in bin/ and the model in models/ (the first GGUF file by name). Without
// them the error wraps [ErrNotInstalled] and says the command that
// installs them.
func Find(dir string) (Install, error) {
	if dir == "" {
		dir = DefaultDir()
	}
	in := Install{Dir: dir, Server: filepath.Join(dir, "bin", serverName)}
	if fi, err := os.Stat(in.Server); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		return in, fmt.Errorf("%w: no %s in %s; install it with %s", ErrNotInstalled, serverName, filepath.Join(dir, "bin"), InstallCommand)
	}
	models, _ := filepath.Glob(filepath.Join(dir, "models", "*.gguf"))
	if len(models) == 0 {
		return in, fmt.Errorf("%w: no model (*.gguf) in %s; install it with %s", ErrNotInstalled, filepath.Join(dir, "models"), InstallCommand)
	}
	in.Model = models[0]
	in.Name = strings.TrimSuffix(filepath.Base(in.Model), ".gguf")
	return in, nil
}
