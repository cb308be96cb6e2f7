package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A config file (--config FILE) is YAML whose keys are the command's flag
// names without dashes:
//
//	model: llama3.1
//	base-url: http://localhost:11434/v1
//	viewport: 1366x768
//	extra-header: {X-Team: qa}
//	allowed-domains: [example.org, "*.example.org"]
//
// A flag given on the command line overrides the file; the file overrides
// the environment's defaults (a WEBAGENT_… variable counts only for a
// setting neither gives). An unknown key is an error with a suggestion.

// configFlag is the flag's name.
const configFlag = "config"

// maxConfigBytes bounds a config file.
const maxConfigBytes = 1 << 20

// applyConfig sets, from the file named by --config, every flag of fs that
// the command line did not set.
func applyConfig(fs *flag.FlagSet) error {
	f := fs.Lookup(configFlag)
	if f == nil || f.Value.String() == "" {
		return nil
	}
	path := f.Value.String()
	data, err := os.ReadFile(path)
	if err != nil {
		return usagef("--config: %v", err)
	}
	if len(data) > maxConfigBytes {
		return usagef("--config %s is larger than 1 MiB; is it the right file?", path)
	}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil // an empty file
		}
		return usagef("--config %s is not YAML: %s", path, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(doc.Content) == 0 {
		return nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return usagef("--config %s: line %d: the file must be a mapping of flag names to values, e.g. model: llama3.1", path, root.Line)
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		at := fmt.Sprintf("--config %s: line %d", path, k.Line)
		name := strings.TrimLeft(k.Value, "-")
		fl := fs.Lookup(name)
		if fl == nil || name == configFlag {
			msg := fmt.Sprintf("%s: unknown key %q", at, k.Value)
			if near := closest(name, configNames(fs)); near != "" {
				msg += fmt.Sprintf("; did you mean %s?", near)
			}
			return usagef("%s (the keys are run's flag names, see 'webagent help %s')", msg, fs.Name())
		}
		if given[name] {
			continue // the command line wins
		}
		values, err := configValues(name, v)
		if err != nil {
			return usagef("%s: %s: %v", at, name, err)
		}
		for _, val := range values {
			if err := fs.Set(name, val); err != nil {
				return usagef("%s: %s", at, flagError(fs, fmt.Errorf("invalid value %q for flag -%s: %v", val, name, err)))
			}
		}
	}
	return nil
}

// configNames are the keys a config file may use.
func configNames(fs *flag.FlagSet) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name != configFlag {
			names = append(names, f.Name)
		}
	})
	return names
}

// configValues turns a key's YAML value into the flag values to set: a
// scalar is one, a list one per item, a mapping (extra-header, secret)
// one per entry.
func configValues(name string, v *yaml.Node) ([]string, error) {
	switch v.Kind {
	case yaml.ScalarNode:
		return []string{v.Value}, nil
	case yaml.SequenceNode:
		var out []string
		for _, it := range v.Content {
			if it.Kind != yaml.ScalarNode {
				return nil, errors.New("a list may hold only plain values")
			}
			out = append(out, it.Value)
		}
		return out, nil
	case yaml.MappingNode:
		sep := map[string]string{"extra-header": ": ", "secret": "="}[name]
		if sep == "" {
			return nil, errors.New("takes a value or a list, not a mapping")
		}
		var out []string
		for i := 0; i+1 < len(v.Content); i += 2 {
			out = append(out, v.Content[i].Value+sep+v.Content[i+1].Value)
		}
		return out, nil
	}
	return nil, errors.New("has a value that is not a plain value, a list or a mapping")
}
