package sites

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// Policy is a car insurance policy the claim form knows.
type Policy struct {
	Number string `json:"number"`
	Holder string `json:"holder"`
	Car    string `json:"car"`
	Plate  string `json:"plate"`
}

// appPolicies are the policies of the claim form.
var appPolicies = []Policy{
	{"MTR-204817", "Ann Lee", "2019 Toyota Corolla", "KX19 ABC"},
	{"MTR-550912", "Ben Ortiz", "2021 Honda Civic", "RV21 KLM"},
	{"MTR-318264", "Chloe Martin", "2016 Ford Focus", "BD16 PQR"},
}

// OtherVehicle is the other party of a collision.
type OtherVehicle struct {
	Involved bool   `json:"involved"`
	Driver   string `json:"driver,omitempty"`
	Insurer  string `json:"insurer,omitempty"`
	Plate    string `json:"plate,omitempty"`
}

// GlassRepair is what a glass damage claim asks for.
type GlassRepair struct {
	Glass    string `json:"glass"`
	Damage   string `json:"damage"` // chip or crack
	Where    string `json:"where"`  // mobile or workshop
	Address  string `json:"address,omitempty"`
	Day      string `json:"day,omitempty"`
	Slot     string `json:"slot,omitempty"`
	Workshop string `json:"workshop,omitempty"`
}

// Claim is a claim filed with the form.
type Claim struct {
	ID          string        `json:"id"`
	Policy      string        `json:"policy"`
	Kind        string        `json:"kind"` // collision, theft, glass, storm
	Date        string        `json:"date"`
	Place       string        `json:"place"`
	Description string        `json:"description"`
	Other       *OtherVehicle `json:"other,omitempty"`
	Drivable    *bool         `json:"drivable,omitempty"`
	CarLocation string        `json:"car_location,omitempty"`
	Tow         bool          `json:"tow"`
	Police      string        `json:"police,omitempty"`
	Glass       *GlassRepair  `json:"glass,omitempty"`
}

var claimDateRe = regexp.MustCompile(`^(0[1-9]|[12][0-9]|3[01])/(0[1-9]|1[0-2])/20[0-9]{2}$`)

// postClaim files a claim: the policy must be known, the kind one of the
// four, the date DD/MM/YYYY; it answers {"id": "CL-1001"}.
func (a *Apps) postClaim(w http.ResponseWriter, r *http.Request) {
	var c Claim
	if !decode(w, r, &c) {
		return
	}
	known := false
	for _, p := range appPolicies {
		known = known || p.Number == c.Policy
	}
	switch {
	case !known:
		writeError(w, fmt.Sprintf("no policy %q", c.Policy))
		return
	case !strings.Contains(" collision theft glass storm ", " "+c.Kind+" ") || c.Kind == "":
		writeError(w, "choose the type of claim")
		return
	case !claimDateRe.MatchString(c.Date):
		writeError(w, "write the date as DD/MM/YYYY")
		return
	case c.Kind == "glass" && (c.Glass == nil || c.Glass.Glass == ""):
		writeError(w, "say which glass is damaged")
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	c.ID = fmt.Sprintf("CL-%d", 1001+len(a.claims))
	a.claims = append(a.claims, c)
	writeJSON(w, http.StatusOK, map[string]string{"id": c.ID})
}
