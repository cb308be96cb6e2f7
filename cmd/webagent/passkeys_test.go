package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/passkey"
	"github.com/webagent/webagent/testfixture/passkeysite"
	"github.com/webagent/webagent/testfixture/tier"
)

// TestPasskeys: a passkey a site creates is refused without
// --passkeys-create (the page sees NotAllowedError and the site stores
// none), kept with it, signs in in a later run (a fresh
// browser) and not on another rp id; its private key is in no trace,
// output, log or model request; passkeys list and remove manage the store,
// and a store others may read is exit 2.
func TestPasskeys(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	site, err := passkeysite.Start("localhost")
	if err != nil {
		t.Fatal(err)
	}
	defer site.Close()
	llm := startModel(t, passkeysite.Model())
	dir := t.TempDir()
	store := filepath.Join(dir, "passkeys.json")
	var outputs strings.Builder
	runTask := func(t *testing.T, url, task string, extra ...string) (*agent.Result, int, *proc) {
		t.Helper()
		traceDir := filepath.Join(t.TempDir(), "trace")
		args := append([]string{"run", "--json", "--log-level", "debug", "--trace", traceDir, "--url", url, "--base-url", llm.BaseURL(), "--model", "m",
			"--passkeys", store}, extra...)
		code, p := run(t, append(args, task)...)
		var res agent.Result
		if err := json.Unmarshal(p.stdout.Bytes(), &res); err != nil {
			t.Fatalf("exit %d, %v; stdout %s\nstderr:\n%s", code, err, p.stdout.String(), p.stderr.String())
		}
		p.noChromeLeft(t)
		if _, err := os.Stat(traceDir); err != nil {
			t.Fatalf("no trace: exit %d, %+v; stderr:\n%s", code, res, p.stderr.String())
		}
		outputs.WriteString(p.stdout.String() + p.stderr.String() + traceText(t, traceDir))
		return &res, code, p
	}
	held := func(t *testing.T) []passkey.Credential {
		t.Helper()
		s, err := passkey.Open(store)
		if err != nil {
			t.Fatal(err)
		}
		return s.List()
	}

	// Refused as an authenticator whose user declines: the page sees
	// NotAllowedError, the site stores no public key, the model is told.
	before := len(llm.Requests())
	res, code, p := runTask(t, site.URL(), "Create a passkey for ann")
	if code != exitFailed || !strings.Contains(res.Message, "Passkey error: NotAllowedError") || site.Users() != 0 || len(held(t)) != 0 ||
		!strings.Contains(modelText(llm.Requests()[before:]), "asked to create a passkey for ann: refused") {
		t.Fatalf("without --passkeys-create: exit %d, %+v, site users %d, store %v; stderr:\n%s", code, res, site.Users(), held(t), p.stderr.String())
	}

	before = len(llm.Requests())
	res, code, p = runTask(t, site.URL(), "Create a passkey for ann", "--passkeys-create")
	list := held(t)
	if code != exitOK || len(list) != 1 || site.Users() != 1 || list[0].RPID != "localhost" || list[0].UserName != "ann" ||
		!strings.Contains(modelText(llm.Requests()[before:]), "a passkey for ann on localhost was created and saved") {
		t.Fatalf("with --passkeys-create: exit %d, %+v, store %v; stderr:\n%s", code, res, list, p.stderr.String())
	}
	if fi, err := os.Stat(store); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the store: %v, %v", fi, err)
	}

	res, code, p = runTask(t, site.URL(), "Sign in with a passkey and tell me who I am")
	if code != exitOK || !strings.Contains(res.Answer, "Welcome, ann") || strings.Join(site.SignIns(), ",") != "ann" {
		t.Fatalf("sign-in in a fresh browser: exit %d, %+v, sign-ins %v; stderr:\n%s", code, res, site.SignIns(), p.stderr.String())
	}
	if l := held(t); l[0].LastUsed.IsZero() || l[0].SignCount < 1 {
		t.Errorf("the sign-in was not noted: %+v", l[0])
	}

	t.Run("another rp id", func(t *testing.T) {
		other, err := passkeysite.Start("other.localhost")
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		other.AddUser("ann", list[0].UserHandle)
		res, code, p := runTask(t, other.URL(), "Sign in with a passkey and tell me who I am")
		if code == exitOK || !strings.Contains(res.Message, "Passkey error") || len(other.SignIns()) != 0 {
			t.Fatalf("exit %d, %+v, sign-ins %v; stderr:\n%s", code, res, other.SignIns(), p.stderr.String())
		}
	})

	t.Run("the private key shows nowhere", func(t *testing.T) {
		all := outputs.String() + modelText(llm.Requests())
		key := list[0].PrivateKey
		for _, form := range []string{base64.StdEncoding.EncodeToString(key), base64.RawURLEncoding.EncodeToString(key), fmt.Sprintf("%x", []byte(key))} {
			if strings.Contains(all, form[8:40]) {
				t.Errorf("the private key appears in an output, log, trace or model request")
			}
		}
	})

	t.Run("list and remove", func(t *testing.T) {
		code, p := run(t, "passkeys", "list", store)
		if code != exitOK || !strings.Contains(p.stdout.String(), "localhost") || !strings.Contains(p.stdout.String(), "ann") ||
			strings.Contains(p.stdout.String(), base64.StdEncoding.EncodeToString(list[0].PrivateKey)[8:40]) {
			t.Fatalf("list: exit %d\n%s%s", code, p.stdout.String(), p.stderr.String())
		}
		// An id may start with '-' (base64url): it is an id, not a flag.
		code, p = run(t, "passkeys", "remove", store, "-NoSuchId")
		if code != exitUsage || !strings.Contains(p.stderr.String(), "passkeys remove:") {
			t.Errorf("remove of an id starting with '-': exit %d\n%s", code, p.stderr.String())
		}
		code, p = run(t, "passkeys", "remove", store, list[0].IDString()[:10])
		if code != exitOK || len(held(t)) != 0 {
			t.Fatalf("remove: exit %d\n%s%s", code, p.stdout.String(), p.stderr.String())
		}
	})

	t.Run("a store others may read is exit 2", func(t *testing.T) {
		if err := os.Chmod(store, 0o644); err != nil {
			t.Fatal(err)
		}
		before := len(llm.Requests())
		for _, args := range [][]string{
			{"run", "--url", site.URL(), "--base-url", llm.BaseURL(), "--model", "m", "--passkeys", store, "Sign in"},
			{"passkeys", "list", store},
		} {
			code, p := run(t, args...)
			if code != exitUsage || !strings.Contains(p.stderr.String(), "chmod 600 "+store) {
				t.Errorf("%v: exit %d; stderr:\n%s", args[:2], code, p.stderr.String())
			}
		}
		if n := len(llm.Requests()) - before; n != 0 {
			t.Errorf("the model was asked %d times", n)
		}
	})
}

// modelText is every request the model got, as sent.
func modelText(reqs []*modelserver.Recorded) string {
	var sb strings.Builder
	for _, r := range reqs {
		sb.Write(r.Req.Raw)
	}
	return sb.String()
}
