package gemini

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"

	"google.golang.org/genai"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
)

// assembler joins the chunks of a stream into a reply. Each chunk is a
// GenerateContentResponse whose first candidate holds the next parts: text
// in pieces, thoughts (thought: true), whole function calls, and
// thoughtSignature on the part it signs or on an empty part of its own.
// The last chunk has the finishReason; usageMetadata counts so far.
type assembler struct {
	native   *contract.NativeTool
	declared map[string]bool
	parts    []*genai.Part
	usage    *genai.GenerateContentResponseUsageMetadata
	finish   genai.FinishReason
	message  string // finishMessage
}

// add takes one chunk; a prompt the API blocked is an error.
func (a *assembler) add(r *genai.GenerateContentResponse, attempts int) error {
	if r.UsageMetadata != nil {
		a.usage = r.UsageMetadata
	}
	if pf := r.PromptFeedback; pf != nil && pf.BlockReason != "" && pf.BlockReason != genai.BlockedReasonUnspecified {
		return &llm.Error{Kind: llm.KindRefused, Code: string(pf.BlockReason), Attempts: attempts,
			Message: strings.TrimSpace("the prompt was blocked: " + string(pf.BlockReason) + " " + pf.BlockReasonMessage)}
	}
	if len(r.Candidates) == 0 || r.Candidates[0] == nil {
		return nil
	}
	cand := r.Candidates[0]
	if cand.Content != nil {
		for _, p := range cand.Content.Parts {
			if p != nil {
				a.part(p)
			}
		}
	}
	if cand.FinishReason != "" && cand.FinishReason != genai.FinishReasonUnspecified {
		a.finish, a.message = cand.FinishReason, cand.FinishMessage
	}
	return nil
}

// part appends a part, joining a piece of text to the text before it
// (of the same kind, not yet signed).
func (a *assembler) part(p *genai.Part) {
	if n := len(a.parts); n > 0 && isText(p) {
		last := a.parts[n-1]
		if isText(last) && last.Thought == p.Thought && last.ThoughtSignature == nil {
			last.Text += p.Text
			last.ThoughtSignature = p.ThoughtSignature
			return
		}
	}
	cp := *p
	a.parts = append(a.parts, &cp)
}

func isText(p *genai.Part) bool {
	return p.FunctionCall == nil && p.FunctionResponse == nil && p.InlineData == nil && p.FileData == nil &&
		p.ExecutableCode == nil && p.CodeExecutionResult == nil
}

// refusals are the finish reasons of a reply the API stopped.
var refusals = map[genai.FinishReason]bool{
	genai.FinishReasonSafety: true, genai.FinishReasonRecitation: true, genai.FinishReasonBlocklist: true,
	genai.FinishReasonProhibitedContent: true, genai.FinishReasonSPII: true, genai.FinishReasonImageSafety: true,
	genai.FinishReasonImageProhibitedContent: true, genai.FinishReasonLanguage: true,
}

// reply is the assembled reply: the text, the thoughts as Reasoning, the
// function calls (a computer use call read as native actions), the usage.
func (a *assembler) reply(attempts int) (contract.Reply, error) {
	switch {
	case a.finish == "":
		return contract.Reply{}, &llm.Error{Kind: llm.KindProviderDown, Retryable: true, Attempts: attempts,
			Message: "the stream ended before its finishReason"}
	case a.finish == genai.FinishReasonMalformedFunctionCall || a.finish == genai.FinishReasonUnexpectedToolCall:
		return contract.Reply{}, &llm.Error{Kind: llm.KindMalformed, Retryable: true, Attempts: attempts, Code: string(a.finish),
			Message: strings.TrimSpace("the model's function call could not be read (" + string(a.finish) + ") " + a.message)}
	case refusals[a.finish] && countCalls(a.parts) == 0:
		return contract.Reply{}, &llm.Error{Kind: llm.KindRefused, Attempts: attempts, Code: string(a.finish),
			Message: strings.TrimSpace("the reply was stopped: " + string(a.finish) + " " + a.message)}
	}
	var r contract.Reply
	var text, thoughts strings.Builder
	for _, p := range a.parts {
		switch {
		case p.FunctionCall != nil:
			tc, err := a.call(p.FunctionCall)
			if err != nil {
				return contract.Reply{}, &llm.Error{Kind: llm.KindMalformed, Retryable: true, Attempts: attempts, Message: err.Error()}
			}
			r.ToolCalls = append(r.ToolCalls, tc)
		case p.Thought:
			thoughts.WriteString(p.Text)
		default:
			text.WriteString(p.Text)
		}
	}
	if len(r.ToolCalls) > 0 {
		var x extra
		_ = json.Unmarshal(r.ToolCalls[0].Extra, &x)
		x.Parts = a.parts
		r.ToolCalls[0].Extra, _ = json.Marshal(x)
	}
	r.Content, r.Reasoning = text.String(), strings.TrimSpace(thoughts.String())
	r.Usage = usageOf(a.usage)
	return r, nil
}

// call is a function call of the reply: a declared function's, or, with
// the computer use tool declared, one of its predefined functions.
func (a *assembler) call(fc *genai.FunctionCall) (contract.ToolCall, error) {
	args := fc.Args
	if args == nil {
		args = map[string]any{}
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return contract.ToolCall{}, fmt.Errorf("the arguments of %s cannot be read: %w", fc.Name, err)
	}
	id := fc.ID
	if id == "" {
		id = fmt.Sprintf("call_%016x", rand.Uint64()) // the API gave none: the loop needs one
	}
	x, _ := json.Marshal(extra{Name: fc.Name, ID: fc.ID})
	tc := contract.ToolCall{ID: id, Name: fc.Name, Arguments: string(raw), Extra: x}
	if a.native != nil && !a.declared[fc.Name] {
		computerCall(&tc, fc.Name, args, a.native)
	}
	return tc, nil
}

// usageOf is usageMetadata as the contract counts it: the prompt with
// the tools' results, the output with the thoughts.
func usageOf(u *genai.GenerateContentResponseUsageMetadata) contract.Usage {
	if u == nil {
		return contract.Usage{}
	}
	us := contract.Usage{PromptTokens: int(u.PromptTokenCount + u.ToolUsePromptTokenCount),
		CompletionTokens: int(u.CandidatesTokenCount + u.ThoughtsTokenCount), TotalTokens: int(u.TotalTokenCount),
		CachedTokens: int(u.CachedContentTokenCount)}
	if us.TotalTokens == 0 {
		us.TotalTokens = us.PromptTokens + us.CompletionTokens
	}
	return us
}
