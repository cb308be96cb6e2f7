package script_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/webagent/webagent/script"
)

// shelf is a Caller over a list of two pages; package agent's Caller runs
// each call in a real browser, through the loop's checks.
type shelf struct{ page int }

func (s *shelf) Call(_ context.Context, tool string, args json.RawMessage) (string, error) {
	if tool == "click" {
		s.page++
		return "clicked link \"Next\"", nil
	}
	return "", &script.CallError{Code: "ACTION_FAILED", Msg: "no such tool here: " + tool}
}

func (s *shelf) Snapshot(context.Context) (script.Page, error) {
	if s.page == 0 {
		return script.Page{Text: "- Blue mug $12.00\n- Red mug $9.50\nlink \"Next\" [ref=e4]"}, nil
	}
	return script.Page{Text: "- Blue bowl $7.25"}, nil
}

// Example walks every page of a list in one run and returns what it
// found: two page calls and three snapshots, one result.
func Example() {
	code := `var found = [];
for (;;) {
  var s = snapshot();
  s.nodes.forEach(function (n) { if (/^Blue/.test(n.text)) found.push(n.text) });
  var next = s.find({role: "link", name: "Next"});
  if (!next) break;
  click(next.ref);
}
return found;`
	tools := []script.Tool{{Name: "click", Params: []script.Param{{Name: "ref", Type: "string", Required: true}}}}
	res, err := script.Run(context.Background(), code, tools, &shelf{}, script.Limits{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(res.Value), res.Calls)
	// Output: ["Blue mug $12.00","Blue bowl $7.25"] 3
}
