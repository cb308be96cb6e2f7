package dataset

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Rubric is what a rubric task is scored by.
type Rubric struct {
	// Text defines the items, by their ids; the judge reads it.
	Text string `json:"text"`
	// Weights are the items' weights, by id, summing to 100; the judge
	// never sees them.
	Weights map[string]int `json:"weights"`
	Canary  string         `json:"canary,omitempty"`
}

// buV2Task reads a BU Bench V2 task: id, task, an optional website, the
// rubric text, weights keyed by exactly the ids the text defines and
// summing to 100, an optional canary.
func buV2Task(obj map[string]json.RawMessage, t *Task) error {
	v, err := stringsOf(obj, "a BU Bench V2 task", "id", "task", "rubric")
	if err != nil {
		return err
	}
	t.ID, t.Instruction = v[0], v[1]
	rub := &Rubric{Text: v[2]}
	if raw, ok := obj["website"]; ok && string(raw) != "null" && string(raw) != `""` {
		w, err := stringsOf(obj, "a BU Bench V2 task", "website")
		if err != nil {
			return err
		}
		t.URL = w[0]
		if err := checkURL("website", t.URL); err != nil {
			return err
		}
		u, _ := url.Parse(t.URL)
		t.Site = strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	}
	if t.Site == "" {
		t.Site = "(no website)"
	}
	raw, ok := obj["weights"]
	if !ok {
		return fmt.Errorf(`a BU Bench V2 task needs "weights" (it has %s)`, keys(obj))
	}
	if err := json.Unmarshal(raw, &rub.Weights); err != nil || len(rub.Weights) == 0 {
		return fmt.Errorf(`"weights" is %s; it must map each rubric item's id to a whole number, summing to 100`, clip(string(raw), 60))
	}
	sum := 0
	for id, w := range rub.Weights {
		switch {
		case strings.TrimSpace(id) == "":
			return errors.New(`"weights" has an empty item id`)
		case w < 0:
			return fmt.Errorf(`"weights": item %q weighs %d; weights are 0 or more`, id, w)
		case !definesItem(rub.Text, id):
			return fmt.Errorf(`"weights" names item %q, which the rubric does not define`, id)
		}
		sum += w
	}
	if sum != 100 {
		return fmt.Errorf(`"weights" sum to %d; they must sum to 100`, sum)
	}
	if raw, ok := obj["canary"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &rub.Canary); err != nil {
			return fmt.Errorf(`"canary" is %s; it must be text`, clip(string(raw), 40))
		}
	}
	t.Rubric = rub
	return nil
}

// definesItem reports whether the rubric text names item id as a word of
// its own.
func definesItem(text, id string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], id)
		if j < 0 {
			return false
		}
		j += i
		before, after := j == 0 || !isIDRune(rune(text[j-1])), j+len(id) >= len(text) || !isIDRune(rune(text[j+len(id)]))
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isIDRune(r rune) bool {
	return r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}
