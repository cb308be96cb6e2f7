package session

import "time"

// Request is one command for a session.
type Request struct {
	// Agent names the agent whose tabs the command acts on; "" is
	// "default".
	Agent string `json:"agent,omitempty"`
	// Command is a page tool's name (click, goto, wait_for), or snapshot,
	// screenshot, status or close.
	Command string `json:"command"`
	// Args are the tool's arguments, as the model would send them.
	Args map[string]any `json:"args,omitempty"`
	// Confirmed says the user said yes to an action the action policy
	// wants confirmed.
	Confirmed bool `json:"confirmed,omitempty"`
}

// Status says how a command ended.
type Status string

const (
	// OK: the command did what it was asked.
	OK Status = "ok"
	// Failed: the action failed, or was refused, and Text says why.
	Failed Status = "failed"
	// TimedOut: the command ran out of its budget and was abandoned; the
	// page was recovered for the next command.
	TimedOut Status = "timeout"
	// Invalid: the request was wrong (an unknown command, bad arguments)
	// and nothing was done.
	Invalid Status = "invalid"
)

// Reply is a command's answer.
type Reply struct {
	Status Status `json:"status"`
	// Text is what the model would read: the outcome, or the snapshot.
	Text string `json:"text"`
	// Code names the kind of failure: ACTION_FAILED, STALE_REF,
	// POLICY_REFUSED, CONFIRM_NEEDED, TIMEOUT, BROWSER_FAILED, BAD_REQUEST.
	Code string `json:"code,omitempty"`
	// Tab is the agent's current tab after the command.
	Tab string `json:"tab,omitempty"`
	// PNG is the screenshot's image.
	PNG []byte `json:"png,omitempty"`
	// Took is how long the session worked on the command.
	Took time.Duration `json:"took_ns"`
}
