package cache_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/cache"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/signin"
)

// hostedLatency is how long the scripted model takes to answer, as a
// hosted model takes to reply with a tool call (a median seen for small
// replies; the bundled reference model answers in milliseconds).
const hostedLatency = 800 * time.Millisecond

// BenchmarkSignIn times the sign-in task, each run in a fresh Chromium, as
// webagent run --cache runs it: "first" with an empty cache (the model
// answers all 4 steps), "cached" with the cache filled (it answers none),
// against a model that takes hostedLatency to answer. It reports the model
// calls and tokens of a run beside its time.
func BenchmarkSignIn(b *testing.B) {
	members := signin.New()
	srv := httptest.NewServer(members)
	defer srv.Close()
	model, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		t := signin.Model().Respond(req)
		t.Delay = hostedLatency
		return t
	}))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	r := newRunner(b, ctx, srv.URL+"/", model)
	for _, mode := range []string{"first", "cached"} {
		b.Run(mode, func(b *testing.B) {
			var calls, tokens int
			if mode == "cached" {
				r.cache, _ = cache.Open(filepath.Join(b.TempDir(), "cache"), nil)
				if res, _ := r.run("ann"); res.Code != agent.CodeSuccess {
					b.Fatalf("filling the cache: %s", res.Message)
				}
			}
			b.ResetTimer()
			for range b.N {
				if mode == "first" {
					b.StopTimer()
					r.cache, _ = cache.Open(filepath.Join(b.TempDir(), "cache"), nil)
					b.StartTimer()
				}
				res, n := r.run("ann")
				if res.Code != agent.CodeSuccess {
					b.Fatalf("%s: %s", res.Code, res.Message)
				}
				calls += n
				tokens += res.Usage.TotalTokens
			}
			b.ReportMetric(float64(calls)/float64(b.N), "model-calls/op")
			b.ReportMetric(float64(tokens)/float64(b.N), "tokens/op")
		})
	}
}
