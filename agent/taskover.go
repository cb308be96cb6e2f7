package agent

import "errors"

// TaskOver is returned by Browser.Do when the environment itself ended the
// task with that action, as a benchmark does once its episode is over. The
// loop records Outcome as the action's result, runs no further call and
// ends the task: SUCCESS when Success is set, else AGENT_FAILED with
// Message.
type TaskOver struct {
	Outcome string
	Success bool
	Message string
}

func (e *TaskOver) Error() string { return "the task is over: " + e.Message }

// taskOver returns the TaskOver err holds, if any.
func taskOver(err error) (*TaskOver, bool) {
	var t *TaskOver
	ok := errors.As(err, &t)
	return t, ok
}
