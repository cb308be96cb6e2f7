package mcptask

import (
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Extension is the extension's identifier, in capabilities.
const Extension = "io.modelcontextprotocol/tasks"

// RelatedTask is the _meta key under which a task's creation result
// carries {"taskId": ID}.
const RelatedTask = "io.modelcontextprotocol/related-task"

// The extension's methods.
const (
	MethodGet    = "tasks/get"
	MethodUpdate = "tasks/update"
	MethodCancel = "tasks/cancel"
)

// CodeMissingCapability is the JSON-RPC error code of a request that needs
// a capability the client did not declare.
const CodeMissingCapability = -32021

// Status is a task's status.
type Status string

// The statuses; the last three are terminal.
const (
	Working       Status = "working"
	InputRequired Status = "input_required"
	Completed     Status = "completed"
	Failed        Status = "failed"
	Cancelled     Status = "cancelled"
)

// Terminal reports whether s is an end: completed, failed or cancelled.
func (s Status) Terminal() bool { return s == Completed || s == Failed || s == Cancelled }

// Task is a task's state as tasks/get reports it, and (with ResultType
// "task") the result of the call that created it.
type Task struct {
	mcp.ResultBase
	ResultType    string `json:"resultType,omitempty"`
	TaskID        string `json:"taskId"`
	Status        Status `json:"status"`
	StatusMessage string `json:"statusMessage,omitempty"`
	CreatedAt     string `json:"createdAt"`     // RFC 3339
	LastUpdatedAt string `json:"lastUpdatedAt"` // RFC 3339
	// TTLMs is how long after its creation the task may be discarded; nil
	// while it runs (it is kept at least until it ends).
	TTLMs          *int64 `json:"ttlMs"`
	PollIntervalMs int64  `json:"pollIntervalMs,omitempty"`
	// InputRequests are the questions outstanding (input_required).
	InputRequests mcp.InputRequestMap `json:"inputRequests,omitempty"`
	// Result is the call's result (completed).
	Result *mcp.CallToolResult `json:"result,omitempty"`
	// Error is the JSON-RPC error the call ended with (failed).
	Error *jsonrpc.Error `json:"error,omitempty"`
}

// TaskParams name a task: the params of tasks/get and tasks/cancel.
type TaskParams struct {
	mcp.ParamsBase
	TaskID string `json:"taskId"`
}

// UpdateParams are the params of tasks/update: answers to the task's
// input requests, by their keys.
type UpdateParams struct {
	mcp.ParamsBase
	TaskID         string               `json:"taskId"`
	InputResponses mcp.InputResponseMap `json:"inputResponses"`
}

// Ack is the empty result of tasks/update and tasks/cancel.
type Ack struct {
	mcp.ResultBase
	ResultType string `json:"resultType,omitempty"`
}
