package llm

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// maxLine bounds one line of a stream (a huge chunk is a broken server).
const maxLine = 8 << 20

// sseEvent is one unit of a model stream.
type sseEvent struct {
	// errorField is set for an SSE "error:" field (llama.cpp before late
	// 2025) or a data payload under "event: error".
	errorField bool
	done       bool // data: [DONE]
	data       []byte
}

// sseReader reads a chat-completions stream. It follows the SSE format
// loosely, as servers do: comment lines (": keep-alive") are skipped
// wherever they come; a data line that is complete JSON is an event at
// once, without waiting for the blank line; data split over several lines
// is joined; an "error:" field is an event of its own; and JSON without
// "data:" (a server that ignored "stream": true, an error body, JSON
// lines) is read value by value.
type sseReader struct {
	r     *bufio.Reader
	event string   // the pending "event:" name
	data  [][]byte // pending data lines
	plain []byte   // a body that is not SSE
}

func newSSEReader(r io.Reader) *sseReader { return &sseReader{r: bufio.NewReaderSize(r, 64<<10)} }

// next returns the next event, or io.EOF at the end of the body.
func (s *sseReader) next() (sseEvent, error) {
	for {
		line, err := s.line()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				return sseEvent{}, err
			}
			if ev, ok := s.flush(); ok {
				return ev, nil
			}
			if len(bytes.TrimSpace(s.plain)) > 0 {
				p := s.plain
				s.plain = nil
				return sseEvent{data: p}, nil
			}
			return sseEvent{}, io.EOF
		}
		if s.plain != nil { // inside a plain JSON body
			s.plain = append(append(s.plain, '\n'), line...)
			if json.Valid(s.plain) {
				p := s.plain
				s.plain = nil
				return sseEvent{data: p}, nil
			}
			continue
		}
		if len(line) == 0 {
			if ev, ok := s.flush(); ok {
				return ev, nil
			}
			continue
		}
		if line[0] == ':' {
			continue // comment: keep-alive
		}
		if line[0] == '{' || line[0] == '[' {
			// JSON without "data:": a plain body, or JSON lines (one
			// chunk per line).
			if ev, ok := s.flush(); ok {
				s.plain = line
				return ev, nil
			}
			if json.Valid(line) {
				return sseEvent{data: line}, nil
			}
			s.plain = line
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "data":
			if len(s.data) == 0 {
				if t := bytes.TrimSpace(value); bytes.Equal(t, []byte("[DONE]")) {
					s.event = ""
					return sseEvent{done: true}, nil
				} else if json.Valid(t) {
					ev := sseEvent{data: t, errorField: s.event == "error"}
					s.event = ""
					return ev, nil
				}
			}
			s.data = append(s.data, value)
			if joined := bytes.Join(s.data, []byte("\n")); json.Valid(joined) {
				s.data = nil
				ev := sseEvent{data: joined, errorField: s.event == "error"}
				s.event = ""
				return ev, nil
			}
		case "error":
			return sseEvent{errorField: true, data: bytes.TrimSpace(value)}, nil
		case "event":
			s.event = string(bytes.TrimSpace(value))
		}
		// id:, retry: and unknown fields are ignored, as SSE says.
	}
}

// flush returns the pending data lines as an event.
func (s *sseReader) flush() (sseEvent, bool) {
	if len(s.data) == 0 {
		s.event = ""
		return sseEvent{}, false
	}
	ev := sseEvent{data: bytes.Join(s.data, []byte("\n")), errorField: s.event == "error"}
	s.data, s.event = nil, ""
	if bytes.Equal(bytes.TrimSpace(ev.data), []byte("[DONE]")) {
		return sseEvent{done: true}, true
	}
	return ev, true
}

// line reads one line without its end (\n or \r\n).
func (s *sseReader) line() ([]byte, error) {
	var buf []byte
	for {
		part, err := s.r.ReadSlice('\n')
		buf = append(buf, part...)
		if len(buf) > maxLine {
			return nil, fmt.Errorf("a stream line is longer than %d bytes", maxLine)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && len(buf) == 0 {
			return nil, err
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		buf = bytes.TrimSuffix(buf, []byte("\n"))
		buf = bytes.TrimSuffix(buf, []byte("\r"))
		return buf, nil
	}
}
