package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
)

// actionsPage is a static page with one control for each input action.
const actionsPage = `<!doctype html><title>Actions</title>
<button onclick="this.dataset.n = (+this.dataset.n || 0) + 1">Count</button>
<input aria-label="Name">
<select aria-label="Colour"><option>Red</option><option>Green</option><option>Blue</option></select>
<label><input type=checkbox> Agree</label>
<input aria-label="Keys" onkeydown="this.dataset.k = event.key">
<span role=button tabindex=0 onmouseover="this.dataset.h = 1">Hover me</span>`

// BenchmarkActions measures each input action on a static local page, one
// Do call per operation, and reports the median besides the mean
// (go test -run '^$' -bench Actions -benchtime 50x ./browser/).
func BenchmarkActions(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, actionsPage)
	}))
	defer srv.Close()
	ctx := b.Context()
	if _, err := shared.Do(ctx, contract.Action{Name: contract.ActGoto, URL: srv.URL + "/"}); err != nil {
		b.Fatal(err)
	}
	s, err := shared.Snapshot(ctx)
	if err != nil {
		b.Fatal(err)
	}
	ref := func(prefix string) string {
		for line := range strings.Lines(s.Text) {
			line = strings.TrimSpace(line)
			if i := strings.LastIndex(line, "[ref="); strings.HasPrefix(line, prefix) && i >= 0 {
				return strings.TrimSuffix(line[i+len("[ref="):], "]")
			}
		}
		b.Fatalf("no %s in\n%s", prefix, s.Text)
		return ""
	}
	check := ref(`checkbox "Agree"`)
	colours := []string{"Red", "Green", "Blue"}
	cases := []struct {
		name string
		act  func(i int) contract.Action
	}{
		{"click", func(int) contract.Action { return contract.Action{Name: contract.ActClick, Ref: ref(`button "Count"`)} }},
		{"type", func(i int) contract.Action {
			return contract.Action{Name: contract.ActType, Ref: ref(`textbox "Name"`), Text: fmt.Sprint("ann", i%10)}
		}},
		{"select", func(i int) contract.Action {
			return contract.Action{Name: contract.ActSelect, Ref: ref(`combobox "Colour"`), Option: colours[i%3]}
		}},
		{"check", func(i int) contract.Action {
			if i%2 == 0 {
				return contract.Action{Name: contract.ActCheck, Ref: check}
			}
			return contract.Action{Name: contract.ActUncheck, Ref: check}
		}},
		{"press", func(int) contract.Action { return contract.Action{Name: contract.ActPress, Key: "a"} }},
		{"hover", func(int) contract.Action {
			return contract.Action{Name: contract.ActHover, Ref: ref(`button "Hover me"`)}
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var took []time.Duration
			i := 0
			for b.Loop() {
				t0 := time.Now()
				if _, err := shared.Do(ctx, c.act(i)); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(t0))
				i++
			}
			sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
			b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "median-ms")
		})
	}
}
