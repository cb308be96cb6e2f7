package secret

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

func TestAddLink(t *testing.T) {
	s := New(nil, "")
	link := "https://shop.test/magic?token=Zx81kqP0aaQ"
	s.AddLink("email_link", link, "https://shop.test/signup")
	s.Add("email_code", "482913", "https://shop.test")
	if got := s.Mask("opened " + link + "; later /welcome?t=Zx81kqP0aaQ; code 482913"); strings.Contains(got, "Zx81kqP0aaQ") || strings.Contains(got, "482913") {
		t.Fatalf("Mask = %q", got)
	}
	a, err := s.Fill(contract.Action{Name: contract.ActGoto, URL: "<secret>email_link</secret>"})
	if err != nil || a.URL != link || len(a.Origins) != 1 || a.Origins[0] != "https://shop.test" {
		t.Fatalf("Fill goto = %+v, %v", a, err)
	}
	if _, err := s.Fill(contract.Action{Name: contract.ActGoto, URL: "https://evil.test/?x=<secret>email_link</secret>"}); err == nil {
		t.Fatal("a link secret inside another URL was filled")
	}
	if _, err := s.Fill(contract.Action{Name: contract.ActGoto, URL: "<secret>email_code</secret>"}); err == nil {
		t.Fatal("a code was opened as a URL")
	}
	a, err = s.Fill(contract.Action{Name: contract.ActType, Ref: "e1", Text: "<secret>email_code</secret>"})
	if err != nil || a.Text != "482913" {
		t.Fatalf("Fill type = %+v, %v", a, err)
	}
	m := NewMasker(nil)
	var sb strings.Builder
	w := m.Writer(&sb)
	m.Add("email_code", "482913", "https://shop.test")
	_, _ = w.Write([]byte("code 482913\n"))
	if strings.Contains(sb.String(), "482913") {
		t.Fatalf("a learned secret reached the log: %q", sb.String())
	}
}
