package contract

import (
	"errors"
	"fmt"
)

// ActionError is an action failure the model can correct: an unknown or
// stale ref, an element that cannot take the action, a URL that does not
// load, arguments that break a rule of [Action.Validate]. Its message is
// shown to the model as the tool's result; the loop goes on. Err, when
// set, classifies it ([ErrStaleRef]).
type ActionError struct {
	Msg string
	Err error
}

func (e *ActionError) Error() string { return e.Msg }

// Unwrap returns the classifying error, if any.
func (e *ActionError) Unwrap() error { return e.Err }

// ActionErrorf formats an *ActionError.
func ActionErrorf(format string, args ...any) *ActionError {
	return &ActionError{Msg: fmt.Sprintf(format, args...)}
}

// ErrStaleRef is wrapped by an *ActionError for a ref whose element is no
// longer on the page. In a reply with several calls, the loop stops the
// batch there instead of counting an error.
var ErrStaleRef = errors.New("stale ref")

// ErrMalformedReply is wrapped by a Model's error when the provider's reply
// could not be read (a malformed stream). The loop tells the model, counts
// it against the error budget and goes on.
var ErrMalformedReply = errors.New("malformed reply")
