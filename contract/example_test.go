package contract_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/webagent/webagent/contract"
)

// A model call is read into an Action, and Validate checks its fields
// before the browser acts: the error is written for the model.
func ExampleAction_Validate() {
	a := contract.Action{Name: contract.ActDrag, Ref: "e4"}
	fmt.Println(a.Validate())

	a.ToRef = "e9"
	fmt.Println(a.Validate())
	// Output:
	// drag needs to_ref, to_x and to_y, or an offset dx/dy: where to drop
	// <nil>
}

// An ActionError is a failure the model can correct; ErrStaleRef marks the
// ones that name an element that is gone.
func ExampleActionError() {
	err := error(&contract.ActionError{Msg: "ref e7 is not on the page any more", Err: contract.ErrStaleRef})
	var ae *contract.ActionError
	fmt.Println(errors.As(err, &ae), errors.Is(err, contract.ErrStaleRef))
	// Output: true true
}

// A Model can be a plain function: here one that always ends the task.
func ExampleModelFunc() {
	var m contract.Model = contract.ModelFunc(func(ctx context.Context, req contract.Request) (contract.Reply, error) {
		return contract.Reply{ToolCalls: []contract.ToolCall{{ID: "1", Name: "done", Arguments: `{"answer":"42"}`}}}, nil
	})
	r, _ := m.Complete(context.Background(), contract.Request{Messages: []contract.Message{{Role: contract.RoleUser, Content: "What is 6x7?"}}})
	fmt.Println(r.ToolCalls[0].Name, r.ToolCalls[0].Arguments)
	// Output: done {"answer":"42"}
}

// A vendor's scroll names a direction; ScrollToward turns it into the
// pixels the browser scrolls by, whichever vendor gave it.
func ExampleNativeAction_ScrollToward() {
	for _, dir := range []string{"down", "Left", "sideways"} {
		a := contract.NativeAction{Kind: contract.NativeScroll}
		a.ScrollToward(dir, 300, 500)
		fmt.Println(dir, a.ScrollX, a.ScrollY)
	}
	// Output:
	// down 0 500
	// Left -300 0
	// sideways 0 0
}
