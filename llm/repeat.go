package llm

import "strings"

// A small model at a low temperature can fall into writing one line again
// and again until its token limit: SmolLM2-135M-Instruct, shown a wiki
// page, wrote "Lantern is a small static-site server and builder. …" a
// thousand tokens long, minutes of a CPU's time for nothing. The stream
// reader stops such a reply once one line has come repeatLines times in
// a row, and keeps its text up to the line's first occurrence.

const (
	// repeatLines is how many times in a row one line may come before a
	// reply is taken to loop.
	repeatLines = 6
	// minRepeatLine is the shortest line, in bytes without its spaces,
	// that counts: a blank line or a table rule may well repeat.
	minRepeatLine = 12
	// finishRepetition is the finish reason of a reply stopped so.
	finishRepetition = "repetition"
)

// looping reports whether text ends with the same complete line, of at
// least minRepeatLine bytes, repeatLines times or more in a row, and
// returns the text cut after that line's first occurrence in the run. It
// reads the text from its end, only as far as the run goes.
func looping(text string) (string, bool) {
	pos := strings.LastIndexByte(text, '\n')
	if pos < 0 {
		return text, false
	}
	var line string
	n, first := 0, pos
	for pos >= 0 {
		start := strings.LastIndexByte(text[:pos], '\n') + 1
		l := strings.TrimSpace(text[start:pos])
		if n == 0 {
			if len(strings.ReplaceAll(l, " ", "")) < minRepeatLine {
				return text, false
			}
			line = l
		} else if l != line {
			break
		}
		n, first = n+1, pos
		pos = start - 1
	}
	if n < repeatLines {
		return text, false
	}
	return text[:first], true
}
