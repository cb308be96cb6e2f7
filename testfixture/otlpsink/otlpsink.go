// Package otlpsink is an OTLP/HTTP trace receiver for tests: it takes what
// an OpenTelemetry exporter sends to /v1/traces (protobuf, or gzip'd
// protobuf), decodes it with the OTLP protocol's own generated types, and
// keeps the spans for the test to read back.
package otlpsink

import (
	"compress/gzip"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	"google.golang.org/protobuf/proto"
)

// Span is a received span, flattened.
type Span struct {
	Service       string
	Name          string
	TraceID       string
	SpanID        string
	ParentID      string
	Attrs         map[string]string
	StatusCode    int32
	StatusMessage string
}

// Sink is a running receiver.
type Sink struct {
	URL string // the endpoint to give an exporter: http://127.0.0.1:PORT
	srv *httptest.Server

	mu    sync.Mutex
	spans []Span
}

// Start starts a receiver, closed when t ends.
func Start(t testing.TB) *Sink {
	t.Helper()
	s := &Sink{}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// Close stops the receiver: an exporter then meets a closed port.
func (s *Sink) Close() { s.srv.Close() }

func (s *Sink) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/traces" || r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		z, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		defer z.Close()
		body = z
	}
	data, err := io.ReadAll(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var req collectortrace.ExportTraceServiceRequest
	if err := proto.Unmarshal(data, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var got []Span
	for _, rs := range req.GetResourceSpans() {
		service := ""
		for _, a := range rs.GetResource().GetAttributes() {
			if a.GetKey() == "service.name" {
				service = a.GetValue().GetStringValue()
			}
		}
		for _, ss := range rs.GetScopeSpans() {
			for _, sp := range ss.GetSpans() {
				s := Span{Service: service, Name: sp.GetName(), TraceID: hex.EncodeToString(sp.GetTraceId()), SpanID: hex.EncodeToString(sp.GetSpanId()),
					ParentID: hex.EncodeToString(sp.GetParentSpanId()), Attrs: map[string]string{},
					StatusCode: int32(sp.GetStatus().GetCode()), StatusMessage: sp.GetStatus().GetMessage()}
				for _, a := range sp.GetAttributes() {
					s.Attrs[a.GetKey()] = valueString(a.GetValue())
				}
				got = append(got, s)
			}
		}
	}
	s.mu.Lock()
	s.spans = append(s.spans, got...)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-protobuf")
	out, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
	_, _ = w.Write(out)
}

// Spans returns the spans received so far.
func (s *Sink) Spans() []Span {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Span(nil), s.spans...)
}

func valueString(v *commonpb.AnyValue) string {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_IntValue:
		return strconv.FormatInt(x.IntValue, 10)
	case *commonpb.AnyValue_BoolValue:
		return strconv.FormatBool(x.BoolValue)
	case *commonpb.AnyValue_DoubleValue:
		return strconv.FormatFloat(x.DoubleValue, 'f', -1, 64)
	case *commonpb.AnyValue_ArrayValue:
		var parts []string
		for _, e := range x.ArrayValue.GetValues() {
			parts = append(parts, valueString(e))
		}
		return strings.Join(parts, ",")
	}
	return ""
}
