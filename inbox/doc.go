// Package inbox reads the agent's mailbox over IMAP: the newest message
// of a task that matches a sender and a subject, and the one-time code or
// sign-in link it carries.
//
// # The address
//
// A mailbox is written imaps://USER@HOST[:PORT]/MAILBOX (ParseURL): IMAP
// over TLS from the first byte (port 993 by default), the mailbox INBOX
// when none is named. The password is never part of the address: it is
// the task's secret named inbox, set on the Config. Plain imap:// is
// refused, and so is STARTTLS: a server, or a man in the middle, cannot
// talk the client down to clear text. The server's certificate is
// verified against the system's roots, or against a private CA
// (LoadCA).
//
// # Bounds
//
// Every call takes a context and returns when it ends: the connection is
// closed under a server that stalls (a greeting, a login or a search that
// never comes), so the caller's budget is the only clock. Wait polls the
// mailbox until a message comes or its wait runs out.
//
// # Codes and links
//
// Extract finds a message's one-time code (a number of 4 to 8 digits, six
// preferred) and its sign-in link (an http or https URL that carries a
// token or names a sign-in); the agent turns them into secrets of its
// task, so the model sees only their placeholders.
package inbox
