#!/usr/bin/env bash
# Sets up a fresh Debian/Ubuntu machine for webagent: Chromium (apt-get, only
# when missing), the Go modules, and the binary in ./bin/webagent.
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v go >/dev/null 2>&1; then
  echo "setup: Go is not installed; install Go 1.26 or newer from https://go.dev/dl/" >&2
  exit 1
fi

have_chrome() {
  [ -n "${CHROME_PATH:-}" ] && [ -x "${CHROME_PATH}" ] && return 0
  command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || command -v google-chrome >/dev/null 2>&1
}

if ! have_chrome; then
  echo "setup: installing Chromium with apt-get" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
      echo "setup: Chromium is missing and this is not root; run: apt-get install chromium" >&2
      exit 1
    fi
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

echo "setup: downloading Go modules" >&2
go mod download
echo "setup: building bin/webagent" >&2
go build -o bin/webagent ./cmd/webagent
echo "setup: done; try: bin/webagent eval (or bin/webagent demo)" >&2
