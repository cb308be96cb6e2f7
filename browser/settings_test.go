package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

// TestSettingsReachThePage: the page sees the user agent, viewport, locale,
// time zone and extra header given, and so does the server.
func TestSettingsReachThePage(t *testing.T) {
	tier.Slow(t)
	var mu sync.Mutex
	var got http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			mu.Lock()
			got = r.Header.Clone()
			mu.Unlock()
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<title>s</title><p id=o></p><script>document.getElementById('o').textContent = JSON.stringify({
			ua: navigator.userAgent, w: innerWidth, h: innerHeight, lang: navigator.language,
			tz: Intl.DateTimeFormat().resolvedOptions().timeZone, num: (1234.5).toLocaleString()})</script>`)
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := Launch(ctx, Options{Logger: testLogger(), UserAgent: "webagent-test/1.0 (like Gecko)", Width: 800, Height: 600,
		Locale: "de-DE", Timezone: "Asia/Tokyo", ExtraHeaders: map[string]string{"X-Team": "qa"}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := b.Do(ctx, contract.Action{Name: contract.ActGoto, URL: srv.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	v, err := b.Eval(ctx, `document.getElementById('o').textContent`)
	if err != nil {
		t.Fatal(err)
	}
	var page struct {
		UA       string
		W, H     int
		Lang, TZ string
		Num      string
	}
	if err := json.Unmarshal([]byte(v.(string)), &page); err != nil {
		t.Fatalf("%v: %v", v, err)
	}
	want := fmt.Sprintf("%+v", struct {
		UA       string
		W, H     int
		Lang, TZ string
		Num      string
	}{"webagent-test/1.0 (like Gecko)", 800, 600, "de-DE", "Asia/Tokyo", "1.234,5"})
	if fmt.Sprintf("%+v", page) != want {
		t.Errorf("the page saw %+v\nwant %s", page, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if got.Get("User-Agent") != "webagent-test/1.0 (like Gecko)" || got.Get("X-Team") != "qa" || !strings.HasPrefix(got.Get("Accept-Language"), "de-DE") {
		t.Errorf("the server saw User-Agent %q, X-Team %q, Accept-Language %q", got.Get("User-Agent"), got.Get("X-Team"), got.Get("Accept-Language"))
	}
}
