// Package console serves `webagent console`: one page that lists the live
// runs and sessions of this machine (package liveview's registry, [liveview.List])
// and the past runs recorded in trace and cache folders (package trace),
// with their results. A live run opens in its own live view; a past run
// opens in the console, its steps (tool calls, outcomes, the model's
// words) beside their screenshots, stepped forward and back; and a past
// run may be replayed (webagent replay --live, started by the console as
// a child process, shown live like any other run).
//
// The page is served by net/http from files embedded in the program (no
// build step, no third-party script), on loopback unless told otherwise;
// another address needs TLS files, as a live view does. Every request but
// the page's own script and style carries the console's token, 128 random
// bits made at Start: without it the answer is 401, with a wrong one 403.
// The token is in the URL Start returns, for the person alone: the
// console writes it in no log line. The page takes it out of the address
// bar as it loads.
//
// # Folders
//
// A folder given to the console is a trace (it holds trace.jsonl), or a
// folder searched for traces down to a few levels (a cache folder's
// entries, an eval's traces, a folder of --trace folders). The folders are
// read again at each listing; a trace's summary is read once and kept while
// its file does not change.
//
// # Replays
//
// With Config.Replay set, a past run that typed no secret may be replayed
// from its page: the console starts the command Config.Replay makes (the
// program's own `replay --live DIR`), which registers its live view, so
// that the replay shows among the live runs. A replay is bounded
// (Config.ReplayTimeout, then SIGTERM, then SIGKILL after a grace), at most
// MaxReplays run at once, and each ends with the console (Close), or
// with the console's process however it ends (the parent-death signal).
// A run that typed secrets gets the command line to run from a terminal
// instead: the console never holds a secret.
package console
