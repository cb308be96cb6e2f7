package anthropic

import (
	sdk "github.com/anthropics/anthropic-sdk-go/v2"
)

// markCache puts the conversation's cache_control breakpoints, besides
// those after the last tool and on the system prompt: on the first user
// block, the task, the end of the part of a run's requests that never
// changes; and on the last block, since the loop only appends to its
// conversation while the page stays, so the next request starts with this
// one whole and reads it from the cache. Four in all, the API's most.
func markCache(msgs []sdk.MessageParam) {
	if len(msgs) == 0 {
		return
	}
	if first := blocksOf(msgs[0]); len(first) > 0 {
		setCache(first[0])
	}
	if last := blocksOf(msgs[len(msgs)-1]); len(last) > 0 {
		setCache(last[len(last)-1])
	}
}

// blocksOf returns a user or assistant turn's blocks.
func blocksOf(m sdk.MessageParam) []sdk.ContentBlockParamUnion {
	switch {
	case m.OfUser != nil:
		return m.OfUser.Content
	case m.OfAssistant != nil:
		return m.OfAssistant.Content
	}
	return nil
}

// setCache marks a block as a breakpoint, when it may be one (a thinking
// block may not).
func setCache(b sdk.ContentBlockParamUnion) {
	if cc := b.GetCacheControl(); cc != nil {
		*cc = sdk.NewCacheControlEphemeralParam()
	}
}
