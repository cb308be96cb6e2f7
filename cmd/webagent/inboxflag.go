package main

import (
	"flag"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/inbox"
	"github.com/webagent/webagent/mcpserver"
	"github.com/webagent/webagent/secret"
	"github.com/webagent/webagent/session"
)

// inboxSecret is the secret that holds the inbox's password.
const inboxSecret = "inbox"

// inboxFlags are --inbox and --inbox-ca, registered by run.
type inboxFlags struct {
	addr, ca string
	// mail is the mailbox read_email reads, set by load; nil without --inbox.
	mail *inbox.Config
	// log masks the program's log; it learns the mail's secrets too.
	log *secret.Masker
}

func (f *inboxFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.addr, "inbox", "", "the agent's mailbox, imaps://USER@HOST[:PORT]/MAILBOX, its password the secret inbox (--secret inbox=env:VAR): offers the model read_email, whose sign-in code or link it uses as a secret, never seeing it")
	fs.StringVar(&f.ca, "inbox-ca", "", "a PEM file of the CA that signs the inbox server's certificate (a private CA); the system's roots otherwise")
}

// load reads the flags and takes the password out of secrets (the model
// may not type it anywhere); a usage error says how to fix what is wrong.
func (f *inboxFlags) load(secrets map[string]string) error {
	if f.addr == "" {
		if f.ca != "" {
			return usagef("--inbox-ca is only for --inbox: give --inbox imaps://USER@HOST/INBOX too, or drop --inbox-ca")
		}
		return nil
	}
	c, err := inbox.ParseURL(f.addr)
	if err != nil {
		return usagef("--inbox: %v", err)
	}
	pw := ""
	for k, v := range secrets {
		if name, _, _ := secret.ParseKey(k); name == inboxSecret {
			pw = v
			delete(secrets, k)
		}
	}
	if pw == "" {
		return usagef("--inbox %s needs its password as the secret inbox: add --secret inbox=env:VAR (VAR holding the password)", c)
	}
	c.Password = pw
	if f.ca != "" {
		if c.RootCAs, err = inbox.LoadCA(f.ca); err != nil {
			return usagef("--inbox-ca: %v", err)
		}
	}
	f.mail = &c
	return nil
}

// mailbox is the session's inbox, nil without --inbox.
func (f *inboxFlags) mailbox() session.Mailbox {
	if f.mail == nil {
		return nil
	}
	return *f.mail
}

// mailboxMCP is the MCP server's inbox, nil without --inbox.
func (f *inboxFlags) mailboxMCP() mcpserver.Mailbox {
	if f.mail == nil {
		return nil
	}
	return *f.mail
}

// options offers read_email when there is an inbox; the log's masker
// and the trace's learn what it learns.
func (f *inboxFlags) options(trace *secret.Masker) []agent.Option {
	if f.mail == nil {
		return nil
	}
	var also []*secret.Masker
	for _, m := range []*secret.Masker{f.log, trace} {
		if m != nil {
			also = append(also, m)
		}
	}
	return []agent.Option{agent.WithInbox(*f.mail, also...)}
}
