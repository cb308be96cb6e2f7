package sites

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// LaptopOption is a choice of the configurator and what it adds to the
// price.
type LaptopOption struct {
	Name  string `json:"name"`
	Cents int    `json:"cents"`
	// Memory lists, for a processor, the memory it takes.
	Memory []string `json:"memory,omitempty"`
}

// LaptopModel is a model of the configurator with its choices.
type LaptopModel struct {
	Name       string         `json:"name"`
	Cents      int            `json:"cents"`
	Processors []LaptopOption `json:"processors"`
	Memory     []LaptopOption `json:"memory"`
	Storage    []LaptopOption `json:"storage"`
	Colours    []string       `json:"colours"`
}

// laptopCatalog is what the configurator offers; the protection plans are
// the same for every model.
var laptopCatalog = map[string]any{
	"models": []LaptopModel{
		{Name: "Aero 13", Cents: 99900,
			Processors: []LaptopOption{{Name: "Core i5", Memory: []string{"8 GB", "16 GB"}}, {Name: "Core i7", Cents: 20000, Memory: []string{"16 GB", "32 GB"}}},
			Memory:     []LaptopOption{{Name: "8 GB"}, {Name: "16 GB", Cents: 10000}, {Name: "32 GB", Cents: 30000}},
			Storage:    []LaptopOption{{Name: "256 GB"}, {Name: "512 GB", Cents: 10000}, {Name: "1 TB", Cents: 25000}},
			Colours:    []string{"Silver", "Sky Blue"}},
		{Name: "Aero 15", Cents: 129900,
			Processors: []LaptopOption{{Name: "Core i5", Memory: []string{"16 GB"}}, {Name: "Core i7", Cents: 20000, Memory: []string{"16 GB", "32 GB"}}},
			Memory:     []LaptopOption{{Name: "16 GB"}, {Name: "32 GB", Cents: 20000}},
			Storage:    []LaptopOption{{Name: "512 GB"}, {Name: "1 TB", Cents: 15000}},
			Colours:    []string{"Silver", "Graphite"}},
		{Name: "Forge 16", Cents: 189900,
			Processors: []LaptopOption{{Name: "Core i7", Memory: []string{"16 GB", "32 GB"}}, {Name: "Core i9", Cents: 40000, Memory: []string{"32 GB", "64 GB"}}},
			Memory:     []LaptopOption{{Name: "16 GB"}, {Name: "32 GB", Cents: 20000}, {Name: "64 GB", Cents: 40000}},
			Storage:    []LaptopOption{{Name: "512 GB"}, {Name: "1 TB", Cents: 15000}, {Name: "2 TB", Cents: 40000}},
			Colours:    []string{"Graphite", "Silver"}},
	},
	"plans": laptopPlans,
}

var laptopPlans = []LaptopOption{{Name: "1 year", Cents: 9900}, {Name: "2 years", Cents: 17900}, {Name: "3 years", Cents: 24900}}

// Quote is a laptop configuration saved as a quote, its total worked out
// by the server.
type Quote struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Email      string `json:"email"`
	Model      string `json:"model"`
	Processor  string `json:"processor"`
	Memory     string `json:"memory"`
	Storage    string `json:"storage"`
	Colour     string `json:"colour"`
	Protection string `json:"protection"` // "" for none
	TotalCents int    `json:"total_cents"`
}

// price works out q's total from the catalog, or says which choice it
// does not offer.
func (q Quote) price() (int, error) {
	models, _ := laptopCatalog["models"].([]LaptopModel)
	i := slices.IndexFunc(models, func(m LaptopModel) bool { return m.Name == q.Model })
	if i < 0 {
		return 0, fmt.Errorf("no model %q", q.Model)
	}
	m := models[i]
	total := m.Cents
	pick := func(what, name string, opts []LaptopOption) (LaptopOption, error) {
		j := slices.IndexFunc(opts, func(o LaptopOption) bool { return o.Name == name })
		if j < 0 {
			return LaptopOption{}, fmt.Errorf("the %s has no %s %q", m.Name, what, name)
		}
		total += opts[j].Cents
		return opts[j], nil
	}
	p, err := pick("processor", q.Processor, m.Processors)
	if err != nil {
		return 0, err
	}
	if !slices.Contains(p.Memory, q.Memory) {
		return 0, fmt.Errorf("the %s with the %s takes %s of memory", m.Name, p.Name, strings.Join(p.Memory, " or "))
	}
	if _, err := pick("memory", q.Memory, m.Memory); err != nil {
		return 0, err
	}
	if _, err := pick("storage", q.Storage, m.Storage); err != nil {
		return 0, err
	}
	if !slices.Contains(m.Colours, q.Colour) {
		return 0, fmt.Errorf("the %s comes in %s", m.Name, strings.Join(m.Colours, " or "))
	}
	if q.Protection != "" {
		if _, err := pick("protection plan", q.Protection, laptopPlans); err != nil {
			return 0, err
		}
	}
	return total, nil
}

// postQuote saves a quote: a name, an email and a configuration the
// catalog offers; it answers {"id": "Q-2001", "total": "$1,298.00"}.
func (a *Apps) postQuote(w http.ResponseWriter, r *http.Request) {
	var q Quote
	if !decode(w, r, &q) {
		return
	}
	q.Name, q.Email = strings.TrimSpace(q.Name), strings.TrimSpace(q.Email)
	total, err := q.price()
	switch {
	case q.Name == "":
		writeError(w, "give the quote a name")
		return
	case !emailRe.MatchString(q.Email):
		writeError(w, "enter a valid email address")
		return
	case err != nil:
		writeError(w, err.Error())
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	q.ID, q.TotalCents = fmt.Sprintf("Q-%d", 2001+len(a.quotes)), total
	a.quotes = append(a.quotes, q)
	writeJSON(w, http.StatusOK, map[string]string{"id": q.ID, "total": money(total)})
}
