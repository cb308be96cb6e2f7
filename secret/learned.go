package secret

import (
	"net/url"
	"slices"
	"strings"

	"github.com/webagent/webagent/contract"
)

// Add makes value a secret of the task while it runs, bound to origin
// (scheme://host[:port]): a one-time code the agent read in its inbox,
// for instance. From then on every Mask hides it and Fill types it on
// origin only. A name given again takes the new value (a second code
// replaces the first, and both stay masked).
func (s *Set) Add(name, value, origin string) {
	s.add(name, value, origin, false)
}

// AddLink is Add for a link the agent may open: goto with the URL
// <secret>NAME</secret> opens it, from a page of origin only, and never
// shows it. The link's query values and long path segments (the token of
// a sign-in link) are masked on their own too, wherever a page or a
// redirect puts them.
func (s *Set) AddLink(name, link, origin string) {
	s.add(name, link, origin, true)
}

func (s *Set) add(name, value, origin string, link bool) {
	if value == "" || !secretName.MatchString(name) {
		return
	}
	o, err := originOf(origin)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.values[name] = value
	delete(s.bad, name)
	s.origins[name] = nil
	if err == nil {
		s.origins[name] = []string{o}
	}
	s.links[name] = link
	forms := encodings(value)
	if link {
		for _, piece := range linkPieces(value) {
			forms = append(forms, encodings(piece)...)
		}
	}
	for _, enc := range forms {
		s.forms = append(s.forms, secretForm{enc, name})
	}
	s.sortForms()
}

// minPiece is the shortest part of a link masked on its own: shorter
// ones (a path word such as "login") are not a token.
const minPiece = 8

// linkPieces lists the parts of a link that may carry its token: query
// values and path segments of minPiece characters or more, and the
// fragment.
func linkPieces(link string) []string {
	u, err := url.Parse(link)
	if err != nil {
		return nil
	}
	var out []string
	for _, vs := range u.Query() {
		out = append(out, vs...)
	}
	out = append(out, strings.Split(u.EscapedPath(), "/")...)
	out = append(out, u.Fragment)
	return slices.DeleteFunc(out, func(p string) bool { return len(p) < minPiece })
}

// link reports whether raw is exactly the placeholder of a link secret.
func (s *Set) link(raw string) (string, bool) {
	m := secretRef.FindStringSubmatch(strings.TrimSpace(raw))
	if m == nil || m[0] != strings.TrimSpace(raw) || !s.links[m[1]] {
		return "", false
	}
	return m[1], true
}

// fillLink puts a link secret into goto's URL, with the origins the page
// must be on when it is opened.
func (s *Set) fillLink(a contract.Action, name string) (contract.Action, error) {
	origins, err := s.originsOf([]string{name})
	if err != nil {
		return a, err
	}
	a.URL = s.values[name]
	a.SecretNames, a.Origins = []string{name}, origins
	return a, nil
}
