package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/webagent/webagent/passkey"
)

// passkeysFlags is the flag set of webagent passkeys list|remove FILE.
func passkeysFlags() *flag.FlagSet {
	fs := flag.NewFlagSet("passkeys", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: webagent passkeys list FILE         the passkeys of a --passkeys store: site (rp id), user, id, dates\n"+
			"       webagent passkeys remove FILE ID    remove a passkey by its id (or its first characters), or every passkey of a site by its rp id\n")
	}
	return fs
}

// cmdPasskeys lists or removes the passkeys of a store; it never shows a
// private key.
func cmdPasskeys(_ context.Context, args []string, stdout io.Writer) (int, error) {
	// The command has no flags but help: an id may start with '-'
	// (base64url), and is an argument all the same.
	pos := slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == "--" })
	if slices.ContainsFunc(args, func(a string) bool { return a == "-h" || a == "-help" || a == "--help" }) {
		if _, err := parseFlags(passkeysFlags(), args, stdout); err != nil {
			return exitUsage, err
		}
	}
	if len(pos) < 2 {
		return exitUsage, usagef("passkeys: write webagent passkeys list FILE, or webagent passkeys remove FILE ID")
	}
	op, path := pos[0], pos[1]
	if _, err := os.Stat(path); err != nil {
		return exitUsage, usagef("passkeys: %s: no such store; run webagent run --passkeys %s --passkeys-create to make one", path, path)
	}
	switch {
	case op == "list" && len(pos) == 2:
	case op == "remove" && len(pos) == 3:
	case op == "list" || op == "remove":
		return exitUsage, usagef("passkeys %s: wrong number of arguments; write webagent passkeys list FILE, or webagent passkeys remove FILE ID", op)
	default:
		return exitUsage, usagef("passkeys: unknown operation %q; use list or remove", op)
	}
	st, err := passkey.Open(path)
	if err != nil {
		return exitUsage, usagef("%v", err)
	}
	if op == "list" {
		printPasskeys(stdout, st.List())
		return exitOK, nil
	}
	gone, err := st.Remove(pos[2])
	if len(gone) == 0 {
		return exitUsage, usagef("passkeys remove: %v", err)
	}
	for _, c := range gone {
		fmt.Fprintf(stdout, "removed the passkey of %s on %s (%s)\n", c.User(), c.RPID, c.IDString())
	}
	if err != nil {
		return exitFailed, err
	}
	return exitOK, nil
}

func printPasskeys(w io.Writer, list []passkey.Credential) {
	if len(list) == 0 {
		fmt.Fprintln(w, "no passkeys")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SITE\tUSER\tID\tCREATED\tLAST USED")
	day := func(t time.Time) string {
		if t.IsZero() {
			return "never"
		}
		return t.Local().Format("2006-01-02 15:04")
	}
	for _, c := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.RPID, c.User(), c.IDString(), day(c.Created), day(c.LastUsed))
	}
	_ = tw.Flush()
}
