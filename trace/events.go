package trace

import (
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
)

// Version is the format version this package writes and reads.
const Version = 1

// File names inside a trace folder.
const (
	EventsFile = "trace.jsonl"
	ViewerFile = "index.html"
	HARFile    = "trace.har"
	ShotsDir   = "shots"
)

// Event types.
const (
	TypeHeader = "header"
	TypeModel  = "model"
	TypeStep   = "step"
	TypeShot   = "shot"
	TypeEnd    = "end"
)

// Header is the first event: what ran.
type Header struct {
	Type    string    `json:"type"`
	Version int       `json:"version"`
	Started time.Time `json:"started"`
	Task    string    `json:"task"`
	URL     string    `json:"url"`
	Model   ModelInfo `json:"model"`
	Secrets []string  `json:"secrets,omitempty"` // names only
	// Name is a label for the run (an eval task's id).
	Name string `json:"name,omitempty"`
}

// ModelInfo says which model answered and with which parameters.
type ModelInfo struct {
	Name    string         `json:"name,omitempty"`
	BaseURL string         `json:"base_url,omitempty"`
	Params  map[string]any `json:"params,omitempty"`
}

// ModelEvent is one model call.
type ModelEvent struct {
	Type        string    `json:"type"`
	Iteration   int       `json:"iteration"`
	Started     time.Time `json:"started"`
	MS          int64     `json:"ms"`
	Observation string    `json:"observation"`
	// Page is the whole page a delta observation stands for (see
	// agent.ModelCall.Page); empty when Observation is whole.
	Page    string        `json:"page,omitempty"`
	Request RequestRecord `json:"request"`
	Reply   ReplyRecord   `json:"reply"`
	Error   string        `json:"error,omitempty"`
	// Replayed is set when no model was asked: the reply came from a
	// recording of an earlier run (the run cache).
	Replayed bool `json:"replayed,omitempty"`
}

// RequestRecord is the request as sent. Tools is set only when the list
// changed since the previous request.
type RequestRecord struct {
	Messages []contract.Message `json:"messages"`
	Tools    []contract.ToolDef `json:"tools,omitempty"`
	Images   int                `json:"images,omitempty"` // screenshots shown to the model (not stored)
}

// ReplyRecord is the model's reply.
type ReplyRecord struct {
	Content   string              `json:"content,omitempty"`
	Reasoning string              `json:"reasoning,omitempty"`
	ToolCalls []contract.ToolCall `json:"tool_calls,omitempty"`
	Usage     contract.Usage      `json:"usage"`
}

// StepEvent is one ended iteration with what the browser did meanwhile.
type StepEvent struct {
	Type       string                  `json:"type"`
	Iteration  int                     `json:"iteration"`
	Step       agent.Step              `json:"step"`
	Screenshot string                  `json:"screenshot,omitempty"` // path relative to the trace folder
	ShotError  string                  `json:"screenshot_error,omitempty"`
	Console    []contract.ConsoleEntry `json:"console,omitempty"`
	Network    []contract.NetEntry     `json:"network,omitempty"`
	// Blocked are the requests a read-only browser stopped in the step,
	// with what they would have sent.
	Blocked []contract.BlockedRequest `json:"blocked,omitempty"`
}

// ShotEvent is the screenshot of a step, taken once the step ended (before
// the next step acts). Read merges it into the step's StepEvent.
type ShotEvent struct {
	Type       string `json:"type"`
	Iteration  int    `json:"iteration"`
	Screenshot string `json:"screenshot,omitempty"`
	Error      string `json:"error,omitempty"`
}

// EndEvent is the last event: how the run ended (the steps are in the step
// events).
type EndEvent struct {
	Type   string       `json:"type"`
	Result agent.Result `json:"result"`
}

// rawEvent reads the type of a line.
type rawEvent struct {
	Type    string `json:"type"`
	Version int    `json:"version"`
}

// Whole is the observation as the whole page: Page when the model read a
// delta, else Observation. Elements are found here.
func (m *ModelEvent) Whole() string {
	if m.Page != "" {
		return m.Page
	}
	return m.Observation
}
