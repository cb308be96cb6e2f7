// Package cache makes runs that repeat cost nothing: the first successful
// run of a task is stored as its trace (package trace), and the next run of
// the same task replays it step by step in place of the model, for as long
// as the page is as recorded.
//
// A [Cache] is a folder. Each task has an entry in it, a folder named after
// the task (its instruction, start URL and variable names, see [Key]):
//
//	DIR/sign-in-as-ann-…-3f9c2a1b7d04/
//	    entry.json    the cache's own record: format version, the key, the variables' recorded values
//	    trace.jsonl   the run, in the trace format (webagent show-trace and replay read it)
//	    index.html    the trace's viewer
//
// The files are plain: read them, or delete an entry (or the whole folder)
// to forget it. An entry written by a format this package does not read
// (entry.json's "version", or the trace's) is ignored with a warning and
// replaced by the next successful run, never misread. Secrets are stored
// by name, as the trace writes them (<secret>NAME</secret>), never by
// value.
//
// # Replaying
//
// A [Replayer] is an agent.Recording: at each iteration it takes the
// recorded step that comes next and looks for every element it acted on
// in the page now, by what the element was (role, name, the text it stood
// near, its place among equal ones; see internal/outline), never by its old
// ref. When all are there, the recorded reply is given with the page's
// refs, and the loop checks again, before each call, that the call aims at
// that element (agent.WithRecording). A recorded answer (done) is given
// only when the page it was read from is the same as then. At the first
// difference the model answers, with the whole history; after its step
// the recording resumes where the page fits it again: the step the model
// did in another way is skipped, one it did not do is tried again.
//
// Variables make one entry serve many runs: the task is written with
// {{name}} where a value goes ("Add the customer {{user}}"), the values
// are given per run, and what the recorded run typed (or opened) with the
// recorded values is typed with the new ones.
package cache
