package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/webagent/webagent/botauth"
)

// botKeyOpts are the flags of webagent bot-key.
type botKeyOpts struct {
	listen string
}

func botKeyFlags() (*flag.FlagSet, *botKeyOpts) {
	o := &botKeyOpts{}
	fs := flag.NewFlagSet("bot-key", flag.ContinueOnError)
	fs.StringVar(&o.listen, "listen", "", "directory: serve the directory at HOST:PORT"+botauth.DirectoryPath+" (signed, as the directory draft asks) until SIGINT or SIGTERM")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage:
  webagent bot-key new FILE                  write a new Ed25519 key (mode 0600; never over a file) and print its thumbprint
  webagent bot-key directory [--listen ADDR] FILE   print the key's public directory (JWKS), or serve it

A key signs the browser's requests with run/eval/mcp/worker --bot-key FILE (Web Bot Auth).

Flags:
`)
		printFlags(fs)
	}
	return fs, o
}

func cmdBotKey(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs, o := botKeyFlags()
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return exitUsage, err
	}
	if len(pos) != 2 || (pos[0] != "new" && pos[0] != "directory") {
		return exitUsage, usagef("bot-key takes new FILE or directory FILE (see 'webagent help bot-key')")
	}
	file := pos[1]
	if pos[0] == "new" {
		if o.listen != "" {
			return exitUsage, usagef("--listen is for bot-key directory")
		}
		k, err := botauth.NewKeyFile(file)
		if err != nil {
			return exitUsage, usagef("%v", err)
		}
		fmt.Fprintf(stdout, "%s\n", k.Thumbprint())
		fmt.Fprintf(stderr, "wrote %s (keep it private); publish its directory with: webagent bot-key directory %s\n", file, file)
		return exitOK, nil
	}
	k, err := botauth.LoadKey(file)
	if err != nil {
		return exitUsage, usagef("%v", err)
	}
	if o.listen == "" {
		fmt.Fprintf(stdout, "%s\n", botauth.Directory(k))
		return exitOK, nil
	}
	ln, err := net.Listen("tcp", o.listen)
	if err != nil {
		return exitUsage, usagef("--listen %s: %v", o.listen, err)
	}
	srv := &http.Server{Handler: botauth.DirectoryHandler(0, k), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 10 * time.Second, WriteTimeout: 10 * time.Second, IdleTimeout: time.Minute}
	fmt.Fprintf(stdout, "http://%s%s\n", ln.Addr(), botauth.DirectoryPath)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return exitFailed, err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return exitFailed, err
	}
	return exitInterrupted, nil
}
