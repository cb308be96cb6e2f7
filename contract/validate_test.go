package contract_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

func TestValidate(t *testing.T) {
	n := func(v int) *int { return &v }
	at := &contract.Point{X: 1, Y: 2}
	cases := []struct {
		a    contract.Action
		want string // a part of the error; "" for none
	}{
		{contract.Action{Name: "fly"}, `unknown action "fly": use back, box,`},
		{contract.Action{Name: contract.ActClick, Ref: "e1"}, ""},
		{contract.Action{Name: contract.ActGoto, URL: " "}, "goto needs a URL"},
		{contract.Action{Name: contract.ActGoto, URL: "x.org"}, ""},
		{contract.Action{Name: contract.ActScroll}, "scroll needs a direction, or a ref"},
		{contract.Action{Name: contract.ActScroll, Direction: "sideways"}, `unknown scroll direction "sideways"`},
		{contract.Action{Name: contract.ActScroll, Direction: " Down "}, ""},
		{contract.Action{Name: contract.ActScroll, Ref: "e4"}, ""},
		{contract.Action{Name: contract.ActDrag, ToRef: "e2"}, "drag needs where to start"},
		{contract.Action{Name: contract.ActDrag, Ref: "e1"}, "where to drop"},
		{contract.Action{Name: contract.ActDrag, Ref: "e1", DX: 5}, ""},
		{contract.Action{Name: contract.ActDrag, Ref: "e1", At: at, DX: 5}, "either a ref (with anchor, dx, dy) or x and y, not both"},
		{contract.Action{Name: contract.ActDrag, At: at, ToRef: "e2", To: at}, "either to_ref or to_x and to_y, not both"},
		{contract.Action{Name: contract.ActDrag, Ref: "e1", ToRef: "e2", ToAnchor: "middle"}, `unknown anchor "middle"`},
		{contract.Action{Name: contract.ActDrag, Ref: "e1", ToRef: "e2", ToAnchor: "bottom-right", Anchor: "centre"}, ""},
		{contract.Action{Name: contract.ActUpload, Ref: "e1"}, "upload needs the names of the files"},
		{contract.Action{Name: contract.ActTabs}, ""},
		{contract.Action{Name: contract.ActTabs, Op: "switch"}, "tabs switch needs the tab's id"},
		{contract.Action{Name: contract.ActTabs, Op: "close", Tab: "t2"}, ""},
		{contract.Action{Name: contract.ActTabs, Op: "open"}, `unknown tabs op "open"`},
		{contract.Action{Name: contract.ActWaitFor}, "wait_for needs a text or a ref"},
		{contract.Action{Name: contract.ActWaitFor, Text: "Done", State: "gone"}, `unknown state "gone"`},
		{contract.Action{Name: contract.ActWaitFor, Text: "Done", State: contract.WaitEnabled}, "takes a ref only"},
		{contract.Action{Name: contract.ActWaitFor, Ref: "e3", State: contract.WaitEnabled}, ""},
		{contract.Action{Name: contract.ActMouse}, "mouse needs x and y, or a ref"},
		{contract.Action{Name: contract.ActMouse, At: at, Op: "triple"}, `unknown mouse op "triple"`},
		{contract.Action{Name: contract.ActMouse, At: at, Op: contract.MouseHover}, ""},
		{contract.Action{Name: contract.ActMousePath, Path: []contract.Point{*at}}, "at least two points"},
		{contract.Action{Name: contract.ActMultiSelect, Ref: "e1"}, "needs options to add or to remove"},
		{contract.Action{Name: contract.ActMultiSelect, Ref: "e1", Remove: []string{"A"}}, ""},
		{contract.Action{Name: contract.ActSelectText, Ref: "e1", Start: n(2)}, "the text to select, or start and end offsets"},
		{contract.Action{Name: contract.ActSelectText, Ref: "e1", Start: n(-1), End: n(3)}, "start must not be negative"},
		{contract.Action{Name: contract.ActSelectText, Ref: "e1", Start: n(0), End: n(3)}, ""},
		{contract.Action{Name: contract.ActSelectText, Ref: "e1", Text: "fox"}, ""},
		{contract.Action{Name: contract.ActSelectText, Text: "brown fox"}, ""},
		{contract.Action{Name: contract.ActSelectText, Text: " \n "}, "the text to select, or start and end offsets with a ref"},
		{contract.Action{Name: contract.ActSelectText}, "the text to select, or start and end offsets with a ref"},
		{contract.Action{Name: contract.ActSelectText, Start: n(0), End: n(3)}, "start and end needs the ref of the element"},
		{contract.Action{Name: contract.ActWait}, "ms must be between 1 and 30000, not 0"},
		{contract.Action{Name: contract.ActWait, MS: 30001}, "ms must be between 1 and 30000"},
		{contract.Action{Name: contract.ActWait, MS: 1 << 62}, "ms must be between 1 and 30000"},
		{contract.Action{Name: contract.ActWait, MS: 30000}, ""},
	}
	for _, c := range cases {
		err := c.a.Validate()
		if c.want == "" {
			if err != nil {
				t.Errorf("%+v: %v", c.a, err)
			}
			continue
		}
		var ae *contract.ActionError
		if !errors.As(err, &ae) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v (%T), want an *ActionError with %q", c.a, err, err, c.want)
		}
	}
}

func TestParseDomainPatterns(t *testing.T) {
	ps, err := contract.ParseDomainPatterns("example.com, *.shop.example", "http://localhost:3000")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ps {
		got = append(got, p.String())
	}
	if strings.Join(got, " ") != "example.com *.shop.example http://localhost:3000" {
		t.Errorf("patterns: %v", got)
	}
	for _, bad := range []string{"ftp://x.org", "x.org/path", "a.*.org", " "} {
		if _, err := contract.ParseDomainPattern(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
