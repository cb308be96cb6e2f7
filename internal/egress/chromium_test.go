package egress

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestChromiumsOwnCalls: Chromium's own calls to its services, as it makes
// them (the component updater's tunnel and its plain POST, the account
// service under .invalid), are refused under the limits but no page is
// said to have made them: the summary and the trace stay empty. Once a
// page is known to ask for such a host, its refusals are told.
func TestChromiumsOwnCalls(t *testing.T) {
	p, refused := start(t, Config{Guard: only(t, "example.com")})
	c := via(t, p)
	if _, _, err := get(c, http.MethodGet, "https://update.googleapis.com/service/update2/json"); err == nil || !strings.Contains(err.Error(), "Forbidden") {
		t.Errorf("the component updater's tunnel was not refused: %v", err)
	}
	for _, u := range []string{"http://update.googleapis.com/service/update2/json", "http://redirector.gvt1.com/edgedl/x.crx3"} {
		if code, body, err := get(c, http.MethodPost, u); code != http.StatusForbidden || !strings.Contains(body, "refused by webagent") {
			t.Errorf("%s: %d %q %v", u, code, body, err)
		}
	}
	if _, _, err := get(c, http.MethodGet, "https://gaia.webagent.invalid/ListAccounts"); err == nil {
		t.Error("the account service's tunnel was not refused")
	}
	if s := p.Summary(); s != "" {
		t.Errorf("Chromium's own calls were told as the page's: %q", s)
	}
	if got := refused.list(); len(got) != 0 {
		t.Errorf("Chromium's own calls were traced as the page's: %v", got)
	}

	// A page's image from the same host: the interceptor claims it first.
	p.Claim("https://update.googleapis.com/page.png")
	if _, _, err := get(c, http.MethodGet, "https://update.googleapis.com/page.png"); err == nil {
		t.Error("the page's tunnel was not refused")
	}
	want := "1 request to a host outside your limits was refused: update.googleapis.com:443 (1)"
	if s := p.Summary(); s != want {
		t.Errorf("the page's refusal: got %q, want %q", s, want)
	}
	if got := refused.list(); !slices.Equal(got, []string{"CONNECT https://update.googleapis.com:443"}) {
		t.Errorf("traced: %v", got)
	}
}

// TestChromiumsOwnCallsUnconfined: the account service under .invalid is
// refused also without limits (nothing is there), silently.
func TestChromiumsOwnCallsUnconfined(t *testing.T) {
	p, refused := start(t, Config{})
	if code, _, err := get(via(t, p), http.MethodGet, "http://gaia.webagent.invalid/ListAccounts"); code != http.StatusForbidden {
		t.Errorf("%d %v", code, err)
	}
	if s := p.Summary(); s != "" || len(refused.list()) != 0 {
		t.Errorf("told: %q %v", s, refused.list())
	}
}

func TestOwn(t *testing.T) {
	for host, want := range map[string]bool{
		"update.googleapis.com":      true,
		"UPDATE.googleapis.com.":     true,
		"redirector.gvt1.com":        true,
		"r1---sn-abc.gvt1.com":       true,
		"gvt1.com":                   false,
		"fonts.googleapis.com":       false,
		"update.googleapis.com.evil": false,
		"www.google.com":             false,
		"127.0.0.1":                  false,
	} {
		if got := Own(host); got != want {
			t.Errorf("Own(%q) = %v, want %v", host, got, want)
		}
	}
}
