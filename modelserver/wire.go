package modelserver

// Wire forms of the responses.
type (
	chunk struct {
		ID      string        `json:"id"`
		Object  string        `json:"object"`
		Created int64         `json:"created"`
		Model   string        `json:"model"`
		Choices []chunkChoice `json:"choices"`
		Usage   *usage        `json:"usage,omitempty"`
	}
	chunkChoice struct {
		Index        int     `json:"index"`
		Delta        delta   `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	}
	delta struct {
		Role      string      `json:"role,omitempty"`
		Content   *string     `json:"content,omitempty"`
		ToolCalls []deltaCall `json:"tool_calls,omitempty"`
	}
	deltaCall struct {
		Index    int       `json:"index"`
		ID       string    `json:"id,omitempty"`
		Type     string    `json:"type,omitempty"`
		Function deltaFunc `json:"function"`
	}
	deltaFunc struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	}
	usage struct {
		PromptTokens        int           `json:"prompt_tokens"`
		CompletionTokens    int           `json:"completion_tokens"`
		TotalTokens         int           `json:"total_tokens"`
		PromptTokensDetails *tokenDetails `json:"prompt_tokens_details,omitempty"`
	}
	tokenDetails struct {
		CachedTokens int `json:"cached_tokens"`
	}
	completion struct {
		ID      string             `json:"id"`
		Object  string             `json:"object"`
		Created int64              `json:"created"`
		Model   string             `json:"model"`
		Choices []completionChoice `json:"choices"`
		Usage   usage              `json:"usage"`
	}
	completionChoice struct {
		Index        int     `json:"index"`
		Message      message `json:"message"`
		FinishReason string  `json:"finish_reason"`
	}
	message struct {
		Role      string      `json:"role"`
		Content   *string     `json:"content"`
		ToolCalls []deltaCall `json:"tool_calls,omitempty"`
	}
	errorBody struct {
		Error errorDetail `json:"error"`
	}
	errorDetail struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	}
)
