// Package mcptask implements the MCP Tasks extension
// (io.modelcontextprotocol/tasks, as of the 2026-07-28 protocol) on the
// official MCP Go SDK, which does not have it yet: a tools/call that a
// client declaring the extension makes can be answered at once with a
// task, which the client then follows with tasks/get, answers with
// tasks/update while the task waits for input, and ends with
// tasks/cancel.
//
// On the server, a [Store] runs each task's [Work] under a context of its
// own (not the request's: the task outlives the call, the connection and
// the client's session) and keeps its state; [Register] adds the three
// methods and the tools/call hook to an *mcp.Server for the tools a
// [Starter] is given for. A task's work asks its client through
// [Run.Ask], which sets the task to input_required until the answer comes
// or the asking context ends, and reports progress through [Run.Report].
//
// On the client, [Enable] registers the methods on an *mcp.Client, [Declare]
// adds the extension to its capabilities, and [Started], [Get], [Update],
// [Cancel] and [Follow] use them. Besides the extension's own fields, a
// task's creation result carries its id in _meta under
// "io.modelcontextprotocol/related-task", where a client whose SDK decodes
// every tools/call result as a CallToolResult (this SDK's does) can read
// it.
//
// Task ids are 128 random bits, the only thing that grants access to a task:
// there is no listing of tasks.
package mcptask
