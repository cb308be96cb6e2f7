// Package routine turns a run that worked into a named, parameterised tool
// that a model, a person or a program can call: a routine.
//
// A routine is a folder in a routines folder (a [Store]):
//
//	DIR/add-customer/
//	    routine.json   the manifest: name, description (for the model),
//	                   parameters (a JSON Schema), secrets by name, output,
//	                   version, the run it came from, a pending draft
//	    v1.js          version 1: a program in the script tool's language
//	    v2.js          …one file per accepted version
//	    draft.js       a healed version waiting for a person's yes
//
// The program is JavaScript, as package script runs it, in the words a
// person reads: elements are found by role and name, never by ref
// (click({role: "button", name: "Next"})), values that came from the task
// are parameters (params.full_name), secrets are named (secret("PASSWORD"))
// and typed by the run's own rules, start(url) is the page it starts on
// (its precondition) and expect({url, text}) what the run's end showed (its
// postcondition). A person may edit it; [Check] validates it without a
// browser and names the line of a mistake.
//
// [Save] writes a routine from a trace (package trace) or a run cache
// entry (package cache). [Run] runs one through a [Page], the host's gate
// (package agent's: every call under the user's policy, confirmations,
// egress, secrets by origin and the iteration's bound), finding each
// element as the program names it. A step whose element is not there is
// handed to a [Healer] (a model) for that step alone; the run goes on with
// the element it names, and the repaired program becomes a draft, never the
// routine: [Store.Diff] shows it and [Store.Accept] makes it current. A
// step that changes data (a submit, a purchase, a delete, as the action
// policy's presets class them) is healed only with a person's yes.
//
// [Tools] offers the routines of a store to package agent's loop, one tool
// each.
package routine
