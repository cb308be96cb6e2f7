// Package trace records a run of the agent to a folder, reads it back, and
// renders it as a self-contained HTML viewer.
//
// [Create] starts a trace and returns its [Writer], the run's [agent.Tracer]
// ([agent.WithTracer]); [Read] reads a trace back, [Compare] finds the first
// step where two traces of a task part ways, and [WriteViewer] renders one
// as index.html. Package replay runs a trace again without a model.
//
// # Format
//
// A trace is a folder:
//
//	trace.jsonl      the events, one JSON object per line (below)
//	shots/NNNN.jpg   a JPEG of the viewport after step NNNN
//	index.html       the viewer: opens from disk, needs no server or network
//	trace.har        with the HAR option: the network requests as HAR 1.2
//
// Every line of trace.jsonl has a "type". The first is the header; its
// "version" is the format's ([Version]). A reader rejects a version it does
// not know. Fields may be added within a version; none is removed or
// changes meaning.
//
//	{"type":"header","version":1,"started":"…","task":"…","url":"…","model":{…},"secrets":["password"]}
//	{"type":"model","iteration":1,"started":"…","ms":812,"observation":"…",
//	 "request":{"messages":[…],"tools":[…]},"reply":{"content":"…","reasoning":"…","tool_calls":[…],"usage":{…}},"error":"…"}
//	{"type":"step","iteration":1,"step":{…agent.Step: url, thought, actions[tool,args,outcome,error,skipped,ms], timings…},
//	 "console":[{"level","text","url","t"}],"network":[{"method","url","status","type","mime","t","ms","size","error"}],
//	 "blocked":[{"method","url","type","payload","t"}]}
//	{"type":"shot","iteration":1,"screenshot":"shots/0001.jpg","error":"…"}
//	{"type":"end","result":{…agent.Result without steps…}}
//
// A model event comes before the step event of its iteration. Its request
// holds the whole conversation as sent; "tools" is present only when the
// tool list differs from the previous request's (so on the first). Its
// observation is the snapshot message exactly as the model received it;
// the element lines there (`button "Sign in" [ref=e3]`: role, name, ref)
// carry the refs the step's actions name, which replay uses to learn what
// each acted-on element was. A model event with "replayed": true asked no
// model: its reply came from a recording of an earlier run (the run
// cache), its "usage" is what the recorded call had cost, and "ms" is the
// time taken to match it to the page. A step's screenshot is a shot event
// of the same iteration, written later: it is taken once the next snapshot has
// been taken, while the model thinks (so the capture costs the loop
// nothing), or when the run ends; [Read] puts it in the step's "screenshot"
// ("screenshot_error" when it failed). Console times ("t") are Unix
// milliseconds; other times are RFC 3339, with durations in milliseconds
// ("ms"). A step's "blocked" lists the requests a read-only browser
// (webagent --read-only) stopped, with the payload they would have sent.
// Readers skip event types they do not know.
//
// Secret values never appear: every line is passed through the run's masker
// (raw, URL-encoded, HTML entities, JSON escapes, base64), which replaces
// them by <secret>NAME</secret>; the header lists the names.
package trace
