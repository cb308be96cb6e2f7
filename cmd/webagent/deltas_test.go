package main

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
)

// A step's line says whether the model read the page or what changed, its
// prompt tokens, the part a cache could serve and the part served; a cut
// of the conversation gets a line of its own.
func TestPrintStepTokens(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	printStep(&b, agent.Step{Iteration: 3, Delta: true, Context: "the page changed: 2 observations were cut",
		Usage:   contract.Usage{PromptTokens: 1200, PrefixTokens: 1000, CachedTokens: 900},
		Actions: []agent.ActionRecord{{Tool: "click", Outcome: "clicked"}}})
	out := b.String()
	for _, want := range []string{"snapshot 0ms (changes)", "prompt 1200 tokens, 1000 a prefix of the previous, 900 cached", "step 3: the page changed: 2 observations were cut"} {
		if !strings.Contains(out, want) {
			t.Errorf("the step's lines lack %q:\n%s", want, out)
		}
	}
}

// browser snapshot --diff prints what changed since the session's last
// snapshot of the page: the line a click added, not the rows that stayed;
// without --diff the whole page. Under go test -short it is the door's one
// real-browser run of webagent browser (open, snapshot, click, close;
// package tier): never call tier.Slow here.
func TestBrowserSnapshotDiff(t *testing.T) {
	t.Parallel()
	var rows strings.Builder
	for i := range 40 {
		fmt.Fprintf(&rows, "<li>Row %d of the table</li>", i)
	}
	url, host := sitePages(t, map[string]string{"/": `<title>Rows</title><ul>` + rows.String() + `</ul>
<button onclick="this.insertAdjacentHTML('afterend','<p>Added a row.</p>')">Add</button>`})
	s := newBrowserSession(t)
	s.must(t, "open", url+"/", "--allowed-domains", host)
	whole := s.must(t, "snapshot")
	m := regexp.MustCompile(`button "Add" \[ref=(e\d+)\]`).FindStringSubmatch(whole)
	if m == nil || !strings.Contains(whole, "Row 7 of") {
		t.Fatalf("snapshot:\n%s", whole)
	}
	s.must(t, "click", m[1])
	delta := s.must(t, "snapshot", "--diff")
	if !strings.Contains(delta, "+ Added a row.") || strings.Contains(delta, "Row 7 of") {
		t.Errorf("snapshot --diff:\n%s", delta)
	}
	if again := s.must(t, "snapshot"); !strings.Contains(again, "Row 7 of") || !strings.Contains(again, "Added a row.") {
		t.Errorf("snapshot without --diff:\n%s", again)
	}
}
