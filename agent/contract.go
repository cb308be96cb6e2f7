package agent

import "github.com/webagent/webagent/contract"

// The loop's contract with its browser and its model lives in package
// contract, which the browser and the model import instead of this
// package. These aliases keep the names under agent, so that code written
// against them keeps compiling; new code may use either.

// The page side.
type (
	Browser          = contract.Browser
	Action           = contract.Action
	Outcome          = contract.Outcome
	Snapshot         = contract.Snapshot
	Point            = contract.Point
	ActionError      = contract.ActionError
	PageStater       = contract.PageStater
	Screenshotter    = contract.Screenshotter
	Recoverer        = contract.Recoverer
	Confiner         = contract.Confiner
	NavigationPolicy = contract.NavigationPolicy
	DomainPattern    = contract.DomainPattern
	TargetDescriber  = contract.TargetDescriber
	Target           = contract.Target
	Form             = contract.Form
)

// The model side.
type (
	Model     = contract.Model
	ModelFunc = contract.ModelFunc
	Role      = contract.Role
	Message   = contract.Message
	ToolCall  = contract.ToolCall
	ToolDef   = contract.ToolDef
	Request   = contract.Request
	Reply     = contract.Reply
	Usage     = contract.Usage
)

// The roles of a chat conversation.
const (
	RoleSystem    = contract.RoleSystem
	RoleUser      = contract.RoleUser
	RoleAssistant = contract.RoleAssistant
	RoleTool      = contract.RoleTool
)

// Action names: see contract.ActGoto and the others.
const (
	ActGoto        = contract.ActGoto
	ActClick       = contract.ActClick
	ActType        = contract.ActType
	ActSelect      = contract.ActSelect
	ActCheck       = contract.ActCheck
	ActUncheck     = contract.ActUncheck
	ActPress       = contract.ActPress
	ActHover       = contract.ActHover
	ActScroll      = contract.ActScroll
	ActDrag        = contract.ActDrag
	ActUpload      = contract.ActUpload
	ActBack        = contract.ActBack
	ActForward     = contract.ActForward
	ActTabs        = contract.ActTabs
	ActWaitFor     = contract.ActWaitFor
	ActExtract     = contract.ActExtract
	ActMouse       = contract.ActMouse
	ActMousePath   = contract.ActMousePath
	ActSetSlider   = contract.ActSetSlider
	ActMultiSelect = contract.ActMultiSelect
	ActSelectText  = contract.ActSelectText
	ActWait        = contract.ActWait
	ActBox         = contract.ActBox
	ActReadRegion  = contract.ActReadRegion
	ActOptions     = contract.ActOptions
)

// Mouse operations of ActMouse.
const (
	MouseClick       = contract.MouseClick
	MouseDoubleClick = contract.MouseDoubleClick
	MouseRightClick  = contract.MouseRightClick
	MouseHover       = contract.MouseHover
)

// Wait states of ActWaitFor.
const (
	WaitAppear    = contract.WaitAppear
	WaitDisappear = contract.WaitDisappear
	WaitEnabled   = contract.WaitEnabled
)

// Tab operations of ActTabs.
const (
	TabsList   = contract.TabsList
	TabsSwitch = contract.TabsSwitch
	TabsClose  = contract.TabsClose
)

var (
	// ErrStaleRef is contract.ErrStaleRef.
	ErrStaleRef = contract.ErrStaleRef
	// ErrMalformedReply is contract.ErrMalformedReply.
	ErrMalformedReply = contract.ErrMalformedReply
)

// ActionErrorf formats an *ActionError (contract.ActionErrorf).
func ActionErrorf(format string, args ...any) *ActionError {
	return contract.ActionErrorf(format, args...)
}

// ParseDomainPattern reads one pattern (contract.ParseDomainPattern).
func ParseDomainPattern(s string) (DomainPattern, error) { return contract.ParseDomainPattern(s) }

// ParseDomainPatterns reads comma-separated lists of patterns
// (contract.ParseDomainPatterns).
func ParseDomainPatterns(lists ...string) ([]DomainPattern, error) {
	return contract.ParseDomainPatterns(lists...)
}
