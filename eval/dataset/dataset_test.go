package dataset_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webagent/webagent/eval/dataset"
)

func TestLoadWebVoyager(t *testing.T) {
	t.Parallel()
	tasks, err := dataset.Load(dataset.WebVoyager, "testdata/webvoyager.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 3 {
		t.Fatalf("%d tasks", len(tasks))
	}
	first, last := tasks[0], tasks[2]
	if first.ID != "Recipes--0" || first.Site != "Recipes" || first.URL != "https://recipes.example/" || !strings.HasPrefix(first.Instruction, "Find a vegetarian") ||
		first.Line != 1 || first.HumanLabel != nil || first.Level != "" {
		t.Errorf("first: %+v", first)
	}
	if last.Line != 4 || last.HumanLabel == nil || !*last.HumanLabel {
		t.Errorf("last: %+v", last)
	}
}

func TestLoadOnlineMind2Web(t *testing.T) {
	t.Parallel()
	tasks, err := dataset.Load(dataset.OnlineMind2Web, "testdata/online-mind2web.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 3 {
		t.Fatalf("%d tasks", len(tasks))
	}
	f := tasks[0]
	if f.ID != "a1b2c3" || f.Site != "flights.example" || f.Level != "hard" || f.ReferenceLength != 9 || f.Line != 2 || f.HumanLabel != nil {
		t.Errorf("first: %+v", f)
	}
	if l := tasks[1].HumanLabel; l == nil || *l || tasks[1].Line != 9 {
		t.Errorf("second: %+v", tasks[1])
	}
	if l := tasks[2].HumanLabel; l == nil || !*l {
		t.Errorf("third: %+v", tasks[2])
	}
	// The same tasks as JSON lines.
	var lines []string
	for _, tk := range tasks {
		lines = append(lines, `{"task_id":"`+tk.ID+`","confirmed_task":"x","website":"`+tk.URL+`","level":"`+tk.Level+`"}`)
	}
	again, err := dataset.Read(dataset.OnlineMind2Web, "om2w.jsonl", []byte(strings.Join(lines, "\n")))
	if err != nil || len(again) != 3 || again[2].Line != 3 || again[2].Site != "shop.example" {
		t.Errorf("JSON lines: %+v %v", again, err)
	}
}

// TestBadInput: every mistake names the file and its line.
func TestBadInput(t *testing.T) {
	t.Parallel()
	const ok = `{"web_name": "A", "id": "A--0", "ques": "q", "web": "https://a.example/"}`
	for _, c := range []struct {
		name, kind, data string
		line             int
		want             string
	}{
		{"not json", dataset.WebVoyager, ok + "\n{\"web_name\": \"A\", \"id\": \n", 2, "not a JSON object"},
		{"missing field", dataset.WebVoyager, ok + "\n" + `{"web_name": "A", "id": "A--1", "web": "https://a.example/"}`, 2, `needs "ques"`},
		{"not a url", dataset.WebVoyager, `{"web_name": "A", "id": "A--1", "ques": "q", "web": "a.example"}`, 1, "not an http or https URL"},
		{"duplicate id", dataset.WebVoyager, ok + "\n\n" + ok, 3, `id "A--0" again: it was given to the task at line 1`},
		{"wrong format", dataset.OnlineMind2Web, ok, 1, `an Online-Mind2Web task needs "task_id"`},
		{"bad level", dataset.OnlineMind2Web, `{"task_id": "x", "confirmed_task": "q", "website": "https://a.example/", "level": "expert"}`, 1, "easy, medium, hard"},
		{"bad label", dataset.WebVoyager, `{"web_name": "A", "id": "A--1", "ques": "q", "web": "https://a.example/", "human_label": "maybe"}`, 1, "human_label"},
		{"array broken", dataset.OnlineMind2Web, "[\n  {\"task_id\": \"x\",\n   \"confirmed_task\" \"q\"}\n]", 3, "not valid JSON"},
		{"empty", dataset.WebVoyager, "\n\n", 0, "holds no task"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := dataset.Read(c.kind, "set.jsonl", []byte(c.data))
			var de *dataset.Error
			if !errors.As(err, &de) || de.Line != c.line || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want line %d saying %q", err, c.line, c.want)
			}
		})
	}
	if _, err := dataset.Load("webarena", "testdata/webvoyager.jsonl"); err == nil || !strings.Contains(err.Error(), "webvoyager or online-mind2web") {
		t.Errorf("unknown dataset: %v", err)
	}
	if _, err := dataset.Load(dataset.WebVoyager, filepath.Join(t.TempDir(), "none.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestSelect(t *testing.T) {
	t.Parallel()
	tasks, _ := dataset.Load(dataset.OnlineMind2Web, "testdata/online-mind2web.json")
	got, err := dataset.Select(tasks, dataset.Filter{Sites: []string{"www.FLIGHTS.example", "shop.example"}})
	if err != nil || len(got) != 2 || got[0].ID != "a1b2c3" || got[1].ID != "g7h8i9" {
		t.Errorf("sites: %+v %v", got, err)
	}
	got, err = dataset.Select(tasks, dataset.Filter{Levels: []string{"easy", "hard"}})
	if err != nil || len(got) != 2 {
		t.Errorf("levels: %+v %v", got, err)
	}
	if _, err := dataset.Select(tasks, dataset.Filter{Sites: []string{"nowhere.example"}}); err == nil || !strings.Contains(err.Error(), "flights.example, library.example, shop.example") {
		t.Errorf("unknown site: %v", err)
	}
	wv, _ := dataset.Load(dataset.WebVoyager, "testdata/webvoyager.jsonl")
	if _, err := dataset.Select(wv, dataset.Filter{Levels: []string{"easy"}}); err == nil || !strings.Contains(err.Error(), "no level") {
		t.Errorf("level of WebVoyager: %v", err)
	}
}

func TestSample(t *testing.T) {
	t.Parallel()
	var tasks []dataset.Task
	for i := range 100 {
		tasks = append(tasks, dataset.Task{ID: string(rune('A'+i%26)) + string(rune('a'+i/26)), Line: i + 1})
	}
	a, b := dataset.Sample(tasks, 10, 7), dataset.Sample(tasks, 10, 7)
	c := dataset.Sample(tasks, 10, 8)
	same := func(x, y []dataset.Task) bool {
		for i := range x {
			if x[i].ID != y[i].ID {
				return false
			}
		}
		return true
	}
	if len(a) != 10 || !same(a, b) || same(a, c) {
		t.Errorf("samples %v %v %v", a, b, c)
	}
	for i := 1; i < len(a); i++ {
		if a[i].Line <= a[i-1].Line {
			t.Errorf("the sample is not in the set's order: %v", a)
		}
	}
	if len(dataset.Sample(tasks, 500, 1)) != 100 {
		t.Error("a sample larger than the set")
	}
}
