package report

import (
	"fmt"
	"strings"
)

// CacheStats sums what the run cache (eval --cache) gave the runs.
type CacheStats struct {
	Runs        int `json:"runs"`        // runs under the cache
	Replayed    int `json:"replayed"`    // runs that asked the model nothing
	Steps       int `json:"steps"`       // iterations in all
	FromCache   int `json:"from_cache"`  // iterations the cache answered
	ModelCalls  int `json:"model_calls"` // iterations the model answered
	Saved       int `json:"saved"`       // model calls saved
	Tokens      int `json:"tokens"`      // tokens spent
	TokensSaved int `json:"tokens_saved"`
	Healed      int `json:"healed"` // recorded steps the model did anew
}

// CacheStats returns the sums, and false when no run was under a cache.
func (r *Report) CacheStats() (CacheStats, bool) {
	var c CacheStats
	for _, run := range r.Runs {
		s := run.Replay
		if s == nil {
			continue
		}
		c.Runs++
		if s.ModelCalls == 0 {
			c.Replayed++
		}
		c.Steps += run.Iterations
		c.FromCache += s.Steps
		c.ModelCalls += s.ModelCalls
		c.Saved += s.ModelCallsSaved
		c.Tokens += run.Tokens.TotalTokens
		c.TokensSaved += s.TokensSaved
		c.Healed += len(s.Healed)
	}
	return c, c.Runs > 0
}

// cacheMarkdown is the report's cache section, "" without a cache.
func (r *Report) cacheMarkdown() string {
	c, ok := r.CacheStats()
	if !ok {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n## Run cache\n\n| runs | wholly replayed | steps from the cache | model calls made | saved | tokens spent | saved | healed steps |\n")
	b.WriteString("|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	fmt.Fprintf(&b, "| %d | %d | %d of %d | %d | %d | %d | %d | %d |\n",
		c.Runs, c.Replayed, c.FromCache, c.Steps, c.ModelCalls, c.Saved, c.Tokens, c.TokensSaved, c.Healed)
	return b.String()
}
