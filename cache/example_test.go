package cache_test

import (
	"fmt"

	"github.com/webagent/webagent/cache"
)

// A task written once with a variable serves every customer: the values
// go in place of {{name}}, and the key, which names the task in the cache,
// is the same whatever the values.
func ExampleExpand() {
	task := "Add the customer {{name}} with the email {{email}}"
	for _, vars := range []map[string]string{
		{"name": "Ann Lee", "email": "ann@example.com"},
		{"name": "Bo Chen", "email": "bo@example.com"},
	} {
		texts, err := cache.Expand(vars, task)
		if err != nil {
			fmt.Println(err)
			return
		}
		key := cache.Key{Task: task, URL: "https://crm.example.com/new", Vars: []string{"name", "email"}}
		fmt.Println(texts[0], "→", key.ID())
	}
	_, err := cache.Expand(map[string]string{"name": "Ann Lee"}, task)
	fmt.Println(err)
	// Output:
	// Add the customer Ann Lee with the email ann@example.com → add-the-customer-name-with-the-email-ema-8b7d53fc5090
	// Add the customer Bo Chen with the email bo@example.com → add-the-customer-name-with-the-email-ema-8b7d53fc5090
	// the task uses {{email}} but no value is given for email
}
