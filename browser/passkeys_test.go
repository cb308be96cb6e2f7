package browser

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/passkey"
	"github.com/webagent/webagent/testfixture/passkeysite"
)

// Without PasskeysCreate a site's "create a passkey" fails for the page as
// a refused authenticator's does: navigator.credentials.create rejects with
// NotAllowedError, the site stores no public key, webagent keeps none, and
// the action that made the site ask says why; the wrapped create passes for
// the browser's own. With PasskeysCreate the same page creates one, which
// the site and the store keep. Both in the isolated world webagent's
// programs run in and in the page's (Observable).
func TestPasskeyCreateRefused(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		create, observable bool
	}{{false, false}, {false, true}, {true, false}} {
		t.Run(fmt.Sprintf("create=%v,observable=%v", c.create, c.observable), func(t *testing.T) {
			t.Parallel()
			site, err := passkeysite.Start("localhost")
			if err != nil {
				t.Fatal(err)
			}
			defer site.Close()
			store, err := passkey.Open(filepath.Join(t.TempDir(), "passkeys.json"))
			if err != nil {
				t.Fatal(err)
			}
			b := newTabWith(t, Options{Passkeys: store, PasskeysCreate: c.create, Observable: c.observable})
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := b.Do(ctx, contract.Action{Name: contract.ActGoto, URL: site.URL()}); err != nil {
				t.Fatal(err)
			}
			if _, err := b.Snapshot(ctx); err != nil { // e1 the name, e2 "Create a passkey"
				t.Fatal(err)
			}
			if _, err := b.Do(ctx, contract.Action{Name: contract.ActType, Ref: "e1", Text: "ann"}); err != nil {
				t.Fatal(err)
			}
			out, err := b.Do(ctx, contract.Action{Name: contract.ActClick, Ref: "e2"})
			if err != nil {
				t.Fatal(err)
			}
			want := "Passkey error: NotAllowedError The operation either timed out or was not allowed."
			if c.create {
				want = "Passkey created for ann"
			}
			// The page's status, once it says something (a promise the
			// page's script settles; ctx bounds it).
			v, err := b.Eval(ctx, `new Promise((resolve) => {
  const s = document.getElementById('status');
  const said = () => s.textContent && resolve(s.textContent);
  new MutationObserver(said).observe(s, {childList: true, characterData: true, subtree: true});
  said();
})`)
			status, _ := v.(string)
			if err != nil || !strings.HasPrefix(status, want) {
				t.Fatalf("the page says %q (%v), want %q", status, err, want)
			}
			users, held := map[bool]int{false: 0, true: 1}[c.create], len(store.List())
			if site.Users() != users || held != users {
				t.Errorf("the site keeps %d users' passkeys and webagent %d, want %d", site.Users(), held, users)
			}
			told := "the site localhost asked to create a passkey for ann: refused as an authenticator whose user declines (the page got NotAllowedError"
			if !c.create && !strings.Contains(out.Text, told) {
				// The report travels from the page through webagent's
				// world to a binding: on a busy machine it may come after
				// the click's outcome, and then the next snapshot tells it.
				var notices []string
				for deadline := time.Now().Add(10 * time.Second); !strings.Contains(strings.Join(notices, "\n"), told); {
					snap, err := b.Snapshot(ctx)
					if err != nil || time.Now().After(deadline) {
						t.Errorf("neither the click (%q) nor the snapshots' notices (%q) tell the refusal (%v)", out.Text, notices, err)
						break
					}
					notices = append(notices, snap.Notices...)
				}
			}
			native, err := b.Eval(ctx, `CredentialsContainer.prototype.create.toString() + ' ' + CredentialsContainer.prototype.create.length + ' ' +
  Object.getOwnPropertyNames(window).filter(k => k.startsWith('__wa')).length`)
			if err != nil || native != "function create() { [native code] } 0 0" {
				t.Errorf("the page sees create as %v (%v)", native, err)
			}
		})
	}
}
