package suite

import (
	"strings"
	"testing"
)

func TestExpand(t *testing.T) {
	t.Parallel()
	obs := "Your order number is SO-1042.\nOrder total: $49.49"
	for in, want := range map[string]string{
		"plain":                              "plain",
		"Order {{/SO-[0-9]+/}}":              "Order SO-1042",
		"{{/Order total: ([$][0-9.]+)/}} ok": "$49.49 ok",
		"{{/SO-/}}{{/[0-9]+/}}":              "SO-1042",
	} {
		got, err := expand(in, obs)
		if err != nil || got != want {
			t.Errorf("expand(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := expand("{{/BK-[0-9]+/}}", obs); err == nil || !strings.Contains(err.Error(), "nothing on the page matches /BK-[0-9]+/") {
		t.Errorf("expand without a match: %v", err)
	}
}
