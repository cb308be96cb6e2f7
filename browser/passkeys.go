package browser

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"

	"github.com/webagent/webagent/passkey"
)

// Passkeys the agent holds (Options.Passkeys): each tab has a virtual
// authenticator of CDP's WebAuthn domain, a platform authenticator
// (CTAP 2.1, transport internal) with resident keys and user verification
// that always succeeds, its presence answered at once: webagent is the
// user who verifies. The store's credentials are added to it when the tab
// opens; Chromium itself offers a credential only to its own rp id.
//
// Without Options.PasskeysCreate a site's request to create a passkey is
// refused as an authenticator whose user declines refuses it: the page's
// navigator.credentials.create rejects with NotAllowedError and the site
// stores nothing (js/passkeyRefuse.js, installed in each frame before the
// page's scripts; the model is told). CDP's WebAuthn domain offers no way
// to do it: its settings (user verification, presence, the response's
// flags) are the authenticator's, which creation and sign-in share (Chromium
// allows one internal authenticator per environment), and it reports a
// ceremony only once done (WebAuthn.credentialAdded), so a setting that
// refuses creation refuses the held passkeys' sign-ins too
// (docs/signin.md). A creation that reaches the authenticator all the same
// (a frame of another site, which the program does not reach) is undone as
// Chromium reports it: the credential is removed from the authenticator at
// once, never stored, and the model told; that site keeps a public key
// nobody holds, as after a lost device. A creation with PasskeysCreate is stored, and a sign-in
// (WebAuthn.credentialAsserted) updates the store's signature counter.
// Private keys travel only between the store and Chromium, over the
// DevTools connection: no log, notice, trace or result shows one.

// passkeyTimeout bounds each WebAuthn command of the authenticator's set-up
// after an event (a removal, a read).
const passkeyTimeout = 5 * time.Second

// setupPasskeys gives tab t its authenticator with the store's credentials
// and follows what sites do with it.
func (b *Browser) setupPasskeys(ctx context.Context, t *tab) error {
	store := b.opts.Passkeys
	if store == nil {
		return nil
	}
	if !b.opts.PasskeysCreate {
		if err := b.refuseCreation(ctx, t); err != nil {
			return err
		}
	}
	if _, err := cdp.Call(ctx, t.target, webauthn.Enable, webauthn.EnableParams{}); err != nil {
		return fmt.Errorf("enabling WebAuthn: %w", err)
	}
	res, err := cdp.Call(ctx, t.target, webauthn.AddVirtualAuthenticator, webauthn.AddVirtualAuthenticatorParams{
		Options: &webauthn.VirtualAuthenticatorOptions{
			Protocol: webauthn.AuthenticatorProtocolCtap2, Ctap2version: webauthn.Ctap2versionCtap21,
			Transport: webauthn.AuthenticatorTransportInternal, HasResidentKey: true, HasUserVerification: true,
			IsUserVerified: true, AutomaticPresenceSimulation: true,
		},
	})
	if err != nil {
		return fmt.Errorf("adding the passkey authenticator: %w", err)
	}
	auth := res.AuthenticatorID
	for _, c := range store.List() {
		cred := &addedCredential{CredentialID: c.ID, IsResidentCredential: true, RpID: c.RPID, PrivateKey: c.PrivateKey,
			UserHandle: c.UserHandle, SignCount: float64(c.SignCount), UserName: c.UserName, UserDisplayName: c.UserDisplayName}
		if _, err := cdp.Call(ctx, t.target, addCredential, addCredentialParams{AuthenticatorID: auth, Credential: cred}); err != nil {
			// The error is Chromium's about the call, never its parameters.
			return fmt.Errorf("adding the passkey for %s on %s: %w", c.User(), c.RPID, err)
		}
	}
	added := chromedp.Events(t.ctx, webauthn.CredentialAdded)
	asserted := chromedp.Events(t.ctx, webauthn.CredentialAsserted)
	b.wg.Go(func() { b.followCreated(t, auth, added) })
	b.wg.Go(func() { b.followAsserted(asserted) })
	return nil
}

// passkeyRefuseJS refuses a site's passkey creation in the page's world;
// passkeyHeardJS hears the refusals in webagent's.
var (
	passkeyRefuseJS = program("passkeyRefuse")
	passkeyHeardJS  = program("passkeyHeard")
)

// refuseCreation installs passkeyRefuseJS in tab t's frames, for this
// document and every later one, and the means to hear what it refuses: a
// binding of a random name in the page's world, which only a page whose
// world keeps bindings across documents has (Runtime enabled,
// Options.Observable), else passkeyHeardJS in webagent's world, which
// passes the event of that name on through the world's binding. A report
// is read on the loop that reads the tab's messages (chromedp.Listen), so
// that it is in the notices before any later command returns: the
// snapshot that shows the page's error also tells the model why.
func (b *Browser) refuseCreation(ctx context.Context, t *tab) error {
	var nonce [12]byte
	_, _ = rand.Read(nonce[:])
	name := "__wa" + hex.EncodeToString(nonce[:])
	err := chromedp.Listen(t.ctx, func(ev any) {
		e, ok := ev.(*runtime.EventBindingCalled)
		if !ok {
			return
		}
		said, heard := strings.CutPrefix(e.Payload, "passkey:")
		if e.Name != name && (e.Name != pageBinding || !heard) {
			return
		}
		var req struct{ RP, User string }
		if json.Unmarshal([]byte(said), &req) != nil {
			return
		}
		b.notices.add(fmt.Sprintf("the site %s asked to create a passkey for %s: refused as an authenticator whose user declines (the page got "+
			"NotAllowedError; the site stored none): webagent creates no passkey without --passkeys-create. Sign in another way, or tell the user",
			bounded(req.RP), bounded(req.User)))
	})
	if err != nil {
		return err
	}
	if _, err := cdp.Call(ctx, t.target, runtime.AddBinding, runtime.AddBindingParams{Name: name}); err != nil {
		return fmt.Errorf("adding the passkey refusal's binding: %w", err)
	}
	now := true
	scripts := []page.AddScriptToEvaluateOnNewDocumentParams{{Source: jsCall(passkeyRefuseJS, name), RunImmediately: &now}}
	if !b.worlds.page {
		scripts = append(scripts, page.AddScriptToEvaluateOnNewDocumentParams{Source: jsCall(passkeyHeardJS, name, pageBinding), WorldName: worldName, RunImmediately: &now})
	}
	for _, p := range scripts {
		if _, err := cdp.Call(ctx, t.target, page.AddScriptToEvaluateOnNewDocument, p); err != nil {
			return fmt.Errorf("installing the passkey refusal: %w", err)
		}
	}
	return nil
}

// bounded is a name a page gave, at most 100 characters, "(none)" when
// empty.
func bounded(s string) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > 100 {
		s = string(r[:100]) + "…"
	}
	if s == "" {
		return "(none)"
	}
	return s
}

// addCredential is WebAuthn.addCredential with the credential's fields
// that Chromium takes from a platform authenticator: cdproto's Credential
// always sends generateCmtgKeyOnNextOperation, which Chromium 156 refuses
// ("CMTG is not supported by this authenticator").
var addCredential = cdp.Command[addCredentialParams, cdp.Empty]{Method: webauthn.CommandAddCredential}

type addCredentialParams struct {
	AuthenticatorID webauthn.AuthenticatorID `json:"authenticatorId"`
	Credential      *addedCredential         `json:"credential"`
}

type addedCredential struct {
	CredentialID         []byte  `json:"credentialId"`
	IsResidentCredential bool    `json:"isResidentCredential"`
	RpID                 string  `json:"rpId"`
	PrivateKey           []byte  `json:"privateKey"`
	UserHandle           []byte  `json:"userHandle,omitempty"`
	SignCount            float64 `json:"signCount"`
	UserName             string  `json:"userName,omitempty"`
	UserDisplayName      string  `json:"userDisplayName,omitempty"`
}

// followCreated stores, or undoes, each credential a site creates.
func (b *Browser) followCreated(t *tab, auth webauthn.AuthenticatorID, events iter.Seq2[webauthn.EventCredentialAdded, error]) {
	store := b.opts.Passkeys
	for ev, err := range events {
		if err != nil {
			return
		}
		c := ev.Credential
		if c == nil || ev.AuthenticatorID != auth || held(store, c.CredentialID) {
			continue
		}
		cred := passkey.Credential{ID: c.CredentialID, RPID: c.RpID, UserHandle: c.UserHandle, UserName: c.UserName,
			UserDisplayName: c.UserDisplayName, PrivateKey: c.PrivateKey, SignCount: int64(c.SignCount)}
		if !b.opts.PasskeysCreate {
			ctx, cancel := context.WithTimeout(t.ctx, passkeyTimeout)
			_, err := cdp.Call(ctx, t.target, webauthn.RemoveCredential, webauthn.RemoveCredentialParams{AuthenticatorID: auth, CredentialID: c.CredentialID})
			cancel()
			if err != nil && t.ctx.Err() == nil {
				b.log.Warn("undoing a passkey the site created", "rp", c.RpID, "error", err)
			}
			b.notices.add(fmt.Sprintf("the site %s asked to create a passkey for %s: refused, webagent keeps no new passkey without --passkeys-create "+
				"(the site may believe one was made; none was kept). Sign in another way, or tell the user", c.RpID, cred.User()))
			continue
		}
		if len(cred.PrivateKey) == 0 {
			ctx, cancel := context.WithTimeout(t.ctx, passkeyTimeout)
			got, err := cdp.Call(ctx, t.target, webauthn.GetCredential, webauthn.GetCredentialParams{AuthenticatorID: auth, CredentialID: c.CredentialID})
			cancel()
			if err == nil && got.Credential != nil {
				cred.PrivateKey = got.Credential.PrivateKey
			}
		}
		replaced, err := store.Add(cred)
		switch {
		case err != nil:
			b.log.Warn("saving a passkey", "rp", c.RpID, "error", err)
			b.notices.add(fmt.Sprintf("a passkey for %s on %s was created but could not be saved: %v", cred.User(), c.RpID, err))
		case replaced:
			b.notices.add(fmt.Sprintf("a passkey for %s on %s was created and saved, replacing the one held before; later runs sign in with it", cred.User(), c.RpID))
		default:
			b.notices.add(fmt.Sprintf("a passkey for %s on %s was created and saved; later runs sign in with it", cred.User(), c.RpID))
		}
	}
}

// followAsserted notes each sign-in with a held passkey.
func (b *Browser) followAsserted(events iter.Seq2[webauthn.EventCredentialAsserted, error]) {
	store := b.opts.Passkeys
	for ev, err := range events {
		if err != nil {
			return
		}
		c := ev.Credential
		if c == nil {
			continue
		}
		if err := store.Used(c.CredentialID, int64(c.SignCount), time.Now()); err != nil {
			b.log.Warn("noting a passkey's use", "rp", c.RpID, "error", err)
		}
		user := passkey.Credential{UserHandle: c.UserHandle, UserName: c.UserName, UserDisplayName: c.UserDisplayName}.User()
		b.notices.add(fmt.Sprintf("signed in to %s with the passkey held for %s (user verification answered by webagent)", c.RpID, user))
	}
}

// held reports whether the store holds the credential id (one added from
// it, which Chromium may report as added too).
func held(store *passkey.Store, id []byte) bool {
	for _, c := range store.List() {
		if string(c.ID) == string(id) {
			return true
		}
	}
	return false
}
