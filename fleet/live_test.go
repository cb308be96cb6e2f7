package fleet

import (
	"bytes"
	"testing"
)

// The URLs a worker seals open only with the submitter's key, for the
// workflow and the run they were sealed for, and the sealed bytes do not
// hold them.
func TestLiveSealing(t *testing.T) {
	k, err := NewLiveKey()
	if err != nil {
		t.Fatal(err)
	}
	urls := LiveURLs{View: "http://127.0.0.1:1/v/abc?t=VIEWTOKEN", Control: "http://127.0.0.1:1/v/abc?t=CONTROLTOKEN"}
	sealed, err := sealLive(k.Public(), "wf-1", 2, urls)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"VIEWTOKEN", "CONTROLTOKEN", "/v/abc"} {
		if bytes.Contains(sealed, []byte(s)) {
			t.Errorf("the sealed bytes hold %q", s)
		}
	}
	got, err := k.open("wf-1", 2, sealed)
	if err != nil {
		t.Fatal(err)
	}
	if got.View != urls.View || got.Control != urls.Control || got.Attempt != 2 {
		t.Errorf("opened %+v, want %+v", got, urls)
	}
	other, err := NewLiveKey()
	if err != nil {
		t.Fatal(err)
	}
	for name, open := range map[string]func() (*LiveURLs, error){
		"another key":      func() (*LiveURLs, error) { return other.open("wf-1", 2, sealed) },
		"another workflow": func() (*LiveURLs, error) { return k.open("wf-2", 2, sealed) },
		"another attempt":  func() (*LiveURLs, error) { return k.open("wf-1", 1, sealed) },
		"altered bytes": func() (*LiveURLs, error) {
			b := bytes.Clone(sealed)
			b[len(b)-1] ^= 1
			return k.open("wf-1", 2, b)
		},
	} {
		if u, err := open(); err == nil {
			t.Errorf("%s opened the URLs: %+v", name, u)
		}
	}
	if _, err := sealLive([]byte("not a key"), "wf-1", 1, urls); err == nil {
		t.Errorf("sealing to a wrong key worked")
	}
}
