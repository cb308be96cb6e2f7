#!/usr/bin/env bash
# Sets up a fresh Debian/Ubuntu machine for webagent: Chromium and Xvfb (apt-get, only
# when missing), the MCP Inspector CLI for the tests (npm, where npm is), the Go modules,
# and the binaries in ./bin: webagent, the lean front that runs a browser command
# to a running session itself (a millisecond or two to start, where the whole
# program takes about ten), and webagent-full, the whole program, which it
# runs for everything else. With --local-model it also installs a real
# open-weight model and llama.cpp's server into the cache folder
# (scripts/localmodel-install), for webagent eval --local-model.
set -euo pipefail
cd "$(dirname "$0")"

local_model=false
for arg in "$@"; do
  case "$arg" in
    --local-model) local_model=true ;;
    *)
      echo "setup: unknown option $arg; the one option is --local-model (also install a real model and llama.cpp's server)" >&2
      exit 2
      ;;
  esac
done

if ! command -v go >/dev/null 2>&1; then
  echo "setup: Go is not installed; install Go 1.26 or newer from https://go.dev/dl/" >&2
  exit 1
fi

have_chrome() {
  [ -n "${CHROME_PATH:-}" ] && [ -x "${CHROME_PATH}" ] && return 0
  command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || command -v google-chrome >/dev/null 2>&1
}

# Chromium, and Xvfb for --headful on a machine without a display; each
# only when missing.
packages=()
have_chrome || packages+=(chromium)
command -v Xvfb >/dev/null 2>&1 || packages+=(xvfb)
if [ ${#packages[@]} -gt 0 ]; then
  echo "setup: installing ${packages[*]} with apt-get" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
      echo "setup: ${packages[*]} missing and this is not root; run: apt-get install ${packages[*]}" >&2
      exit 1
    fi
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${packages[@]}" >/dev/null
fi

# The official MCP Inspector's CLI (npm), which a test drives webagent mcp
# with; only where npm is, and only once.
inspector=.tools/mcp-inspector/node_modules/.bin/mcp-inspector
if command -v npm >/dev/null 2>&1 && [ ! -x "$inspector" ]; then
  echo "setup: installing the MCP Inspector CLI into .tools (npm)" >&2
  npm install --prefix .tools/mcp-inspector --ignore-scripts --no-audit --no-fund --loglevel=error \
    @modelcontextprotocol/inspector@2.12.0 >/dev/null
fi

echo "setup: downloading Go modules" >&2
go mod download
echo "setup: building bin/webagent and bin/webagent-full" >&2
go build -o bin/webagent-full ./cmd/webagent
# The lean front statically linked (no cgo): a dynamically linked binary
# spends about a millisecond in the loader before main, which is a fifth
# of its whole run.
CGO_ENABLED=0 go build -o bin/webagent ./cmd/webagent-lean
if $local_model; then
  scripts/localmodel-install
fi
echo "setup: done; try: bin/webagent eval (or bin/webagent demo)" >&2
