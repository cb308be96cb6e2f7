package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeIO runs one MCP session over newline-delimited JSON-RPC on r and w
// (stdin and stdout for an MCP client that starts the server), until r
// ends or ctx does. A line that is not JSON, or not a JSON-RPC message, is
// answered with a JSON-RPC error (-32700, -32600) and the session goes on:
// a client's malformed line does not end it.
func (s *Server) ServeIO(ctx context.Context, r io.Reader, w io.Writer) error {
	lw := &lockedWriter{w: w}
	return s.Serve(ctx, &mcp.IOTransport{Reader: &lineFilter{r: bufio.NewReaderSize(r, 64<<10), w: lw}, Writer: lw})
}

// lineFilter passes the valid JSON-RPC lines of r on and answers the
// others itself.
type lineFilter struct {
	r   *bufio.Reader
	w   *lockedWriter
	buf []byte // the rest of the current line
}

func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.buf) == 0 {
		line, err := f.r.ReadBytes('\n')
		if len(line) > 0 {
			if reply := check(line); reply != nil {
				if _, werr := f.w.Write(reply); werr != nil {
					return 0, werr
				}
			} else {
				f.buf = line
			}
		}
		if err != nil {
			if len(f.buf) > 0 {
				break
			}
			return 0, err
		}
	}
	n := copy(p, f.buf)
	f.buf = f.buf[n:]
	return n, nil
}

func (f *lineFilter) Close() error { return nil }

// check returns the error response for a line that is not a JSON-RPC
// message, or nil.
func check(line []byte) []byte {
	trimmed := bytesTrim(line)
	if len(trimmed) == 0 {
		return nil
	}
	var msg struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if !json.Valid(trimmed) {
		return errorLine(nil, -32700, "Parse error: the line is not valid JSON")
	}
	if trimmed[0] == '[' {
		return nil // a batch: the library answers it
	}
	if err := json.Unmarshal(trimmed, &msg); err != nil || msg.JSONRPC != "2.0" || (msg.Method == "" && msg.Result == nil && msg.Error == nil) {
		return errorLine(msg.ID, -32600, `Invalid Request: a JSON-RPC 2.0 message needs "jsonrpc":"2.0" and a method (or a result or error)`)
	}
	return nil
}

func errorLine(id json.RawMessage, code int, msg string) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	return append(b, '\n')
}

func bytesTrim(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r' || b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

// lockedWriter serialises the library's messages and the filter's errors,
// one whole line per Write.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }
