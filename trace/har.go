package trace

import (
	"encoding/json"
	"os"
	"sort"
	"time"

	"github.com/webagent/webagent/contract"
)

// writeHAR writes the requests as a HAR 1.2 log, masked.
func writeHAR(path string, entries []contract.NetEntry, mask func(string) string) error {
	type nv struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	}
	headers := func(m map[string]string) []nv {
		out := []nv{}
		for k, v := range m {
			out = append(out, nv{k, v})
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
		return out
	}
	type entry struct {
		Started  string         `json:"startedDateTime"`
		Time     int64          `json:"time"`
		Request  map[string]any `json:"request"`
		Response map[string]any `json:"response"`
		Cache    struct{}       `json:"cache"`
		Timings  map[string]any `json:"timings"`
		Comment  string         `json:"comment,omitempty"`
	}
	log := struct {
		Log map[string]any `json:"log"`
	}{Log: map[string]any{
		"version": "1.2",
		"creator": map[string]string{"name": "webagent", "version": "trace/1"},
		"pages":   []any{},
	}}
	es := []entry{}
	for _, e := range entries {
		es = append(es, entry{
			Started: time.UnixMilli(e.Start).UTC().Format(time.RFC3339Nano),
			Time:    e.MS,
			Request: map[string]any{"method": e.Method, "url": e.URL, "httpVersion": "", "cookies": []any{},
				"headers": headers(e.RequestHeaders), "queryString": []any{}, "headersSize": -1, "bodySize": -1},
			Response: map[string]any{"status": e.Status, "statusText": "", "httpVersion": "", "cookies": []any{},
				"headers": headers(e.ResponseHeaders), "content": map[string]any{"size": e.Size, "mimeType": e.MIME},
				"redirectURL": "", "headersSize": -1, "bodySize": e.Size},
			Timings: map[string]any{"send": 0, "wait": e.MS, "receive": 0},
			Comment: e.Error,
		})
	}
	log.Log["entries"] = es
	b, err := json.MarshalIndent(log, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, []byte(mask(string(b))), 0o644)
}
