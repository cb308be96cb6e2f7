package routine

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The codes of an *Error.
const (
	// CodeNotFound: no routine of that name in the store.
	CodeNotFound = "ROUTINE_NOT_FOUND"
	// CodeExists: a routine of that name is already there.
	CodeExists = "ROUTINE_EXISTS"
	// CodeName: the name is not a routine's name.
	CodeName = "ROUTINE_NAME"
	// CodeInvalid: the manifest or the program does not read (Check says
	// where).
	CodeInvalid = "ROUTINE_INVALID"
	// CodeNoDraft: diff or accept of a routine with no draft.
	CodeNoDraft = "ROUTINE_NO_DRAFT"
	// CodeParams: the values given do not fit the parameters' schema.
	CodeParams = "ROUTINE_PARAMS"
	// CodeUnsaveable: the run cannot become a routine (it failed, or acted
	// by coordinates).
	CodeUnsaveable = "ROUTINE_UNSAVEABLE"
	// CodeStep: a step's element is not on the page and was not healed.
	CodeStep = "ROUTINE_STEP_NOT_FOUND"
	// CodeNeedsPerson: a step that changes data no longer fits, and no
	// person was there to accept its repair.
	CodeNeedsPerson = "ROUTINE_NEEDS_PERSON"
	// CodeEnd: the run ended on a page that does not show what the saved
	// run's end showed (the postcondition).
	CodeEnd = "ROUTINE_POSTCONDITION"
	// CodeFailed: the program failed (a page call refused or failed, a
	// bound reached).
	CodeFailed = "ROUTINE_FAILED"
)

// Error is a routine that cannot be saved, read or run: its Code says
// which, Msg what is wrong and what to do, Line the program's line when
// known.
type Error struct {
	Code string
	Msg  string
	Line int
	err  error
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s at line %d: %s", e.Code, e.Line, e.Msg)
	}
	return e.Code + ": " + e.Msg
}

// Unwrap returns the error underneath, if any.
func (e *Error) Unwrap() error { return e.err }

// IsCode reports whether err is an *Error with code.
func IsCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// jsonError names the line of a JSON syntax error.
func jsonError(data []byte, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := int64(-1)
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 {
		return err.Error()
	}
	line := 1 + strings.Count(string(data[:min(int(off), len(data))]), "\n")
	return fmt.Sprintf("line %d: %v", line, err)
}
