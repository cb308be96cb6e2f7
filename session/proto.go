package session

import "github.com/webagent/webagent/session/wire"

// The request and reply that cross a session's socket live in package
// wire, which a lean client imports alone.
type (
	// Request is one command for a session.
	Request = wire.Request
	// Status says how a command ended.
	Status = wire.Status
	// Reply is a command's answer.
	Reply = wire.Reply
)

// How a command ended (see package wire).
const (
	OK       = wire.OK
	Failed   = wire.Failed
	TimedOut = wire.TimedOut
	Invalid  = wire.Invalid
)
