package agent

import "unicode/utf8"

// boundReasoning cuts s to about MaxReasoningBytes, keeping its start and
// its end (where a model usually concludes), never inside a character.
func boundReasoning(s string) string {
	if len(s) <= MaxReasoningBytes {
		return s
	}
	const mark = "\n[… reasoning cut …]\n"
	half := (MaxReasoningBytes - len(mark)) / 2
	head := half
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	tail := len(s) - half
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + mark + s[tail:]
}
