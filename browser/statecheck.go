package browser

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// What a saved storage state holds, told to the user: at the start of a
// run, the cookies whose expiry has passed (a saved sign-in that will not
// sign in any more), and at the end, what was saved.

// Expired returns the cookies of st whose expiry is before now; session
// cookies (expires -1) never expire by date.
func (st *StorageState) Expired(now time.Time) []StateCookie {
	var out []StateCookie
	for _, c := range st.Cookies {
		if c.Expires > 0 && time.Unix(int64(c.Expires), 0).Before(now) {
			out = append(out, c)
		}
	}
	return out
}

// ExpiredNote says which saved sign-ins have expired, by site, naming the
// cookies and when they expired (never their values); "" when none has.
func (st *StorageState) ExpiredNote(now time.Time) string {
	expired := st.Expired(now)
	if len(expired) == 0 {
		return ""
	}
	bySite := map[string][]string{}
	var sites []string
	for _, c := range expired {
		site := strings.TrimPrefix(c.Domain, ".")
		if _, ok := bySite[site]; !ok {
			sites = append(sites, site)
		}
		when := time.Unix(int64(c.Expires), 0).UTC().Format("2006-01-02 15:04 UTC")
		bySite[site] = append(bySite[site], fmt.Sprintf("cookie %s expired %s", c.Name, when))
	}
	slices.Sort(sites)
	parts := make([]string, len(sites))
	for i, s := range sites {
		parts[i] = s + " (" + strings.Join(bySite[s], ", ") + ")"
	}
	return "the saved sign-ins of " + strings.Join(parts, "; ") + " have expired: sign in again and save the state anew"
}

// Summary says what st holds: how many cookies of which sites, and the
// origins whose localStorage it keeps.
func (st *StorageState) Summary() string {
	var sites []string
	for _, c := range st.Cookies {
		if s := strings.TrimPrefix(c.Domain, "."); !slices.Contains(sites, s) {
			sites = append(sites, s)
		}
	}
	slices.Sort(sites)
	out := plural(len(st.Cookies), "cookie")
	if len(sites) > 0 {
		out += " of " + strings.Join(sites, ", ")
	}
	if len(st.Origins) > 0 {
		origins := make([]string, len(st.Origins))
		for i, o := range st.Origins {
			origins[i] = o.Origin
		}
		out += ", localStorage of " + strings.Join(origins, ", ")
	}
	return out
}
