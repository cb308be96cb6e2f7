// Package session runs named browser sessions for one command at a time:
// a session process owns one Chromium and serves bounded commands (the
// agent's page tools, a snapshot, a screenshot) to clients over a Unix
// socket only its user can open, as webagent browser does for coding
// agents that run open, snapshot, click e12 as separate processes.
//
// [Serve] runs a session until it is closed, idles out or its context
// ends, and takes its Chromium and folders with it. [Client] sends one
// [Request] and reads its [Reply], starting the session process first
// when none answers. Every command answers within its tool's budget and
// the operation backstop; a command that runs out of time is abandoned and
// the page recovered for the next one. A client that goes away mid-command
// (killed) cancels its command; the session goes on.
//
// Agents (Request.Agent) share the session's cookies and storage, and each
// acts only on tabs of its own: its first command opens its tab, tabs its
// pages open are its too, and another agent's tabs are listed as not its
// own and never acted on.
package session
