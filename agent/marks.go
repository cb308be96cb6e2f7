package agent

import (
	"context"

	"github.com/webagent/webagent/contract"
)

// marksNote tells the model what the screenshot of an observation is.
const marksNote = "\n\nThe screenshot shows the viewport with each element's ref drawn on its box (the label at its top-left corner). " +
	"Act by ref, or with mouse at x, y in the screenshot's pixels (CSS pixels of the viewport)."

// observationMessage is the observation's message, with the marked
// screenshot under vision marks. A screenshot that fails leaves the
// observation as text: the snapshot is enough to act on.
func (r *run) observationMessage(ctx context.Context, text string) contract.Message {
	obs := contract.Message{Role: contract.RoleUser, Content: text}
	if !r.a.cfg.visionMarks {
		return obs
	}
	png, err := r.a.browser.(contract.MarkedScreenshotter).ScreenshotMarked(ctx)
	if err != nil {
		if ctx.Err() == nil {
			r.a.cfg.logger.Warn("vision marks: no screenshot for this observation", "err", err)
		}
		return obs
	}
	obs.Images = [][]byte{png}
	obs.Content += marksNote
	return obs
}
