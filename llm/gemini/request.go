package gemini

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"google.golang.org/genai"

	"github.com/webagent/webagent/contract"
)

// extra is what a tool call carries in contract.ToolCall.Extra: the
// function's name and the id the API gave the call ("" when it gave
// none), which its functionResponse names; and, on a reply's first call,
// the reply's parts as they came (its thoughts, text and calls with their
// thoughtSignature), sent back whole as the API requires.
type extra struct {
	Name  string        `json:"gemini_name"`
	ID    string        `json:"gemini_id,omitempty"`
	Parts []*genai.Part `json:"gemini_parts,omitempty"`
}

// built is a request ready to send, and what reading its reply needs.
type built struct {
	contents []*genai.Content
	config   *genai.GenerateContentConfig
	native   *contract.NativeTool
	declared map[string]bool // the functions declared
}

// build turns the loop's conversation into a request: the leading system
// messages become systemInstruction; user messages user turns of text
// and inlineData images; an assistant message a model turn; tool results
// functionResponse parts of a user turn. Consecutive messages of one role
// are one turn.
func (c *Client) build(req contract.Request) (*built, error) {
	b := &built{native: req.Native, declared: map[string]bool{},
		config: &genai.GenerateContentConfig{AutomaticContinuation: genai.Ptr(false)}}
	calls := map[string]contract.ToolCall{} // by id: the call a result answers
	shown := recentShots(req.Messages)
	var system []string
	var latest []byte // the latest image of the conversation
	leading := true
	for _, m := range req.Messages {
		if m.Role == contract.RoleSystem && leading {
			system = append(system, m.Content)
			continue
		}
		leading = false
		var parts []*genai.Part
		role := genai.RoleUser
		switch m.Role {
		case contract.RoleSystem:
			parts = []*genai.Part{genai.NewPartFromText(m.Content)}
		case contract.RoleUser:
			parts = userParts(m)
		case contract.RoleAssistant:
			role, parts = genai.RoleModel, modelParts(m)
			for _, tc := range m.ToolCalls {
				calls[tc.ID] = tc
			}
		case contract.RoleTool:
			tc, ok := calls[m.ToolCallID]
			if !ok {
				return nil, fmt.Errorf("a tool result answers call %q, which no earlier message made", m.ToolCallID)
			}
			parts = []*genai.Part{functionResponse(tc, m, latest, shown[m.ToolCallID])}
		default:
			return nil, fmt.Errorf("message of unknown role %q", m.Role)
		}
		if n := len(m.Images); n > 0 {
			latest = m.Images[n-1]
		}
		if n := len(b.contents); n > 0 && b.contents[n-1].Role == role {
			b.contents[n-1].Parts = append(b.contents[n-1].Parts, parts...)
			continue
		}
		b.contents = append(b.contents, &genai.Content{Role: role, Parts: parts})
	}
	if len(system) > 0 {
		b.config.SystemInstruction = &genai.Content{Parts: []*genai.Part{genai.NewPartFromText(strings.Join(system, "\n\n"))}}
	}
	if err := c.tools(req, b); err != nil {
		return nil, err
	}
	c.sampling(b.config)
	return b, nil
}

// tools declares the computer use tool (Request.Native) and the
// functions.
func (c *Client) tools(req contract.Request, b *built) error {
	if req.Native != nil {
		if req.Native.Kind != contract.NativeComputer {
			return fmt.Errorf("the Gemini API has no native tool %q; it has %q (computer use)", req.Native.Kind, contract.NativeComputer)
		}
		b.config.Tools = append(b.config.Tools, &genai.Tool{ComputerUse: &genai.ComputerUse{Environment: genai.EnvironmentBrowser}})
	}
	var decls []*genai.FunctionDeclaration
	for _, t := range req.Tools {
		var schema map[string]any
		if len(t.Parameters) > 0 {
			if err := json.Unmarshal(t.Parameters, &schema); err != nil {
				return fmt.Errorf("the parameters of tool %q are not a JSON object: %w", t.Name, err)
			}
		}
		d := &genai.FunctionDeclaration{Name: t.Name, Description: t.Description}
		if schema != nil {
			d.ParametersJsonSchema = schema
		}
		decls = append(decls, d)
		b.declared[t.Name] = true
	}
	if len(decls) > 0 {
		b.config.Tools = append(b.config.Tools, &genai.Tool{FunctionDeclarations: decls})
	}
	return nil
}

// sampling sets the sampling and thinking settings of the Config.
func (c *Client) sampling(gc *genai.GenerateContentConfig) {
	gc.Temperature, gc.TopP = c.cfg.Temperature, c.cfg.TopP
	if c.cfg.MaxTokens != nil {
		gc.MaxOutputTokens = int32(min(*c.cfg.MaxTokens, 1<<30))
	}
	if c.cfg.ThinkingLevel == "" && c.cfg.ThinkingBudget == nil {
		return
	}
	tc := &genai.ThinkingConfig{IncludeThoughts: true, ThinkingLevel: genai.ThinkingLevel(strings.ToUpper(c.cfg.ThinkingLevel))}
	if b := c.cfg.ThinkingBudget; b != nil {
		tc.ThinkingBudget = genai.Ptr(int32(max(min(*b, 1<<30), -1)))
	}
	gc.ThinkingConfig = tc
}

// userParts are a user message's text and images.
func userParts(m contract.Message) []*genai.Part {
	var parts []*genai.Part
	if m.Content != "" || len(m.Images) == 0 {
		parts = append(parts, genai.NewPartFromText(m.Content))
	}
	for _, img := range m.Images {
		parts = append(parts, &genai.Part{InlineData: &genai.Blob{MIMEType: mimeOf(img), Data: img}})
	}
	return parts
}

// modelParts are an assistant message's parts: those its first call kept
// (thoughts, text and calls with their signatures, as the API sent them),
// else its text and its calls.
func modelParts(m contract.Message) []*genai.Part {
	if len(m.ToolCalls) > 0 {
		var x extra
		if json.Unmarshal(m.ToolCalls[0].Extra, &x) == nil && len(x.Parts) > 0 && countCalls(x.Parts) == len(m.ToolCalls) {
			return x.Parts
		}
	}
	var parts []*genai.Part
	if strings.TrimSpace(m.Content) != "" {
		parts = append(parts, genai.NewPartFromText(m.Content))
	}
	for _, tc := range m.ToolCalls {
		x := callExtra(tc)
		var args map[string]any
		_ = json.Unmarshal([]byte(tc.Arguments), &args)
		parts = append(parts, &genai.Part{FunctionCall: &genai.FunctionCall{ID: x.ID, Name: x.Name, Args: args}})
	}
	if len(parts) == 0 {
		parts = append(parts, genai.NewPartFromText("(no reply)"))
	}
	return parts
}

func countCalls(parts []*genai.Part) int {
	n := 0
	for _, p := range parts {
		if p.FunctionCall != nil {
			n++
		}
	}
	return n
}

// callExtra is what a call keeps of the API's call; a call of another
// API keeps its own name.
func callExtra(tc contract.ToolCall) extra {
	var x extra
	if json.Unmarshal(tc.Extra, &x) != nil || x.Name == "" {
		x = extra{Name: tc.Name}
	}
	return x
}

// keptShots is how many of the latest computer use results keep their
// screenshot, as Google's reference agent keeps them: the older ones go
// back without, which the model does not need and which would fill its
// context.
const keptShots = 3

// recentShots are the ids of the computer use calls whose results keep
// their screenshot: the latest keptShots.
func recentShots(msgs []contract.Message) map[string]bool {
	native := map[string]bool{}
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			native[tc.ID] = tc.Toolset == computerToolset
		}
	}
	kept := map[string]bool{}
	for i := len(msgs) - 1; i >= 0 && len(kept) < keptShots; i-- {
		if m := msgs[i]; m.Role == contract.RoleTool && native[m.ToolCallID] {
			kept[m.ToolCallID] = true
		}
	}
	return kept
}

// functionResponse is a tool's result: {"output": text}, or {"error":
// text} when its call failed or was refused, with its images
// as inline data, or, for a computer use call, Gemini's {"url": ...} with
// the screenshot (the conversation's latest when the result has none; none
// when it is not one of the latest, shown) and safety_acknowledgement when
// a person allowed its safety decision.
func functionResponse(tc contract.ToolCall, m contract.Message, latest []byte, shown bool) *genai.Part {
	x := callExtra(tc)
	key := "output"
	if m.Failed {
		key = "error" // the API's key for a call that failed
	}
	fr := &genai.FunctionResponse{ID: x.ID, Name: x.Name, Response: map[string]any{key: m.Content}}
	imgs := m.Images
	if tc.Toolset == computerToolset {
		fr.Response["url"] = pageURL(m.Browser)
		if len(m.Acknowledged) > 0 {
			fr.Response["safety_acknowledgement"] = "true"
		}
		switch {
		case !shown:
			imgs = nil
		case len(imgs) == 0 && latest != nil:
			imgs = [][]byte{latest}
		}
	}
	for _, img := range imgs {
		fr.Parts = append(fr.Parts, &genai.FunctionResponsePart{InlineData: &genai.FunctionResponseBlob{MIMEType: mimeOf(img), Data: img}})
	}
	return &genai.Part{FunctionResponse: fr}
}

// pageURL is the address of the active tab, "" when unknown.
func pageURL(s *contract.BrowserState) string {
	if s == nil {
		return ""
	}
	for _, t := range s.Tabs {
		if t.Active {
			return t.URL
		}
	}
	if len(s.Tabs) == 1 {
		return s.Tabs[0].URL
	}
	return ""
}

// mimeOf is an image's type, sniffed from its bytes.
func mimeOf(img []byte) string {
	switch t := http.DetectContentType(img); t {
	case "image/png", "image/jpeg", "image/webp":
		return t
	}
	return "image/png"
}
