// Package passkey is the store of the passkeys webagent holds (--passkeys
// FILE): WebAuthn credentials a site created in the browser's virtual
// authenticator, kept so that later runs sign in with them.
//
// The store is one JSON file, mode 0600, written atomically (a reader never
// sees half a file):
//
//	{
//	  "format": "webagent-passkeys",
//	  "version": 1,
//	  "credentials": [
//	    {"credentialId": "…", "rpId": "example.org", "userHandle": "…",
//	     "userName": "ann@example.org", "userDisplayName": "Ann",
//	     "privateKey": "…", "signCount": 3,
//	     "created": "2026-05-01T10:00:00Z", "lastUsed": "2026-05-02T09:00:00Z"}
//	  ]
//	}
//
// Its fields are those of the Chrome DevTools Protocol's WebAuthn.Credential,
// which a credential is added to the authenticator as: the credential id
// and user handle in base64, the private key an ECDSA P-256 key in PKCS#8,
// base64. A credential belongs to its site (rpId) and user (userHandle):
// a second credential for the same pair replaces the first, as a site that
// registers its user again would have it. Outside this package a private
// key is a [PrivateKey], whose every printed or JSON form hides it, so that
// no trace, result, span or log can show it.
//
// Open refuses a file that others may read or write, as ssh does a key.
package passkey

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Format and Version name the store's format.
const (
	Format  = "webagent-passkeys"
	Version = 1
	// maxStoreBytes bounds the file read.
	maxStoreBytes = 4 << 20
)

// PrivateKey is a credential's private key (PKCS#8). It prints, logs and
// marshals as "[private key]": only the store's file holds it.
type PrivateKey []byte

const hiddenKey = "[private key]"

func (PrivateKey) String() string   { return hiddenKey }
func (PrivateKey) GoString() string { return hiddenKey }

// LogValue hides the key from slog.
func (PrivateKey) LogValue() slog.Value { return slog.StringValue(hiddenKey) }

// MarshalJSON hides the key from any JSON but the store's.
func (PrivateKey) MarshalJSON() ([]byte, error) { return json.Marshal(hiddenKey) }

// Format hides the key from every fmt verb.
func (PrivateKey) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, hiddenKey) }

// Credential is one passkey: its site (RPID), its user and its key.
type Credential struct {
	ID              []byte
	RPID            string
	UserHandle      []byte
	UserName        string
	UserDisplayName string
	PrivateKey      PrivateKey
	SignCount       int64
	Created         time.Time
	LastUsed        time.Time
}

// IDString is the credential's id as list shows it and remove takes it:
// base64url without padding.
func (c Credential) IDString() string { return base64.RawURLEncoding.EncodeToString(c.ID) }

// User names the credential's user: its user name, else its display name,
// else its user handle.
func (c Credential) User() string {
	switch {
	case c.UserName != "":
		return c.UserName
	case c.UserDisplayName != "":
		return c.UserDisplayName
	}
	return "user " + base64.RawURLEncoding.EncodeToString(c.UserHandle)
}

// record is a credential as the file holds it.
type record struct {
	ID              []byte    `json:"credentialId"`
	RPID            string    `json:"rpId"`
	UserHandle      []byte    `json:"userHandle"`
	UserName        string    `json:"userName,omitempty"`
	UserDisplayName string    `json:"userDisplayName,omitempty"`
	PrivateKey      []byte    `json:"privateKey"`
	SignCount       int64     `json:"signCount"`
	Created         time.Time `json:"created"`
	LastUsed        time.Time `json:"lastUsed,omitzero"`
}

type file struct {
	Format      string   `json:"format"`
	Version     int      `json:"version"`
	Credentials []record `json:"credentials"`
}

// Store is an open passkey store. Its methods are safe for concurrent use;
// each change is written to the file at once.
type Store struct {
	path  string
	mu    sync.Mutex
	creds []record
}

// Error is a store that cannot be used: Problem says what is wrong, Fix
// what to do.
type Error struct {
	Path, Problem, Fix string
}

func (e *Error) Error() string {
	return fmt.Sprintf("the passkey store %s %s; %s", e.Path, e.Problem, e.Fix)
}

// Open opens the store at path, creating an empty one (mode 0600) when
// there is none. It refuses, with an *Error, a file others may read or
// write, a folder, and a file not in the store's format.
func Open(path string) (*Store, error) {
	s := &Store{path: path}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if dir, derr := os.Stat(filepath.Dir(path)); derr != nil || !dir.IsDir() {
			return nil, &Error{path, "cannot be created: its folder does not exist", "create the folder " + filepath.Dir(path) + " first"}
		}
		if err := s.write(); err != nil {
			return nil, err
		}
		return s, nil
	case err != nil:
		return nil, &Error{path, "cannot be read: " + err.Error(), "check the path"}
	case fi.IsDir():
		return nil, &Error{path, "is a folder", "give a file name such as passkeys.json"}
	case fi.Mode().Perm()&0o077 != 0:
		return nil, &Error{path, fmt.Sprintf("may be read by others (mode %#o): it holds private keys", fi.Mode().Perm()),
			"run chmod 600 " + path}
	}
	if err := s.read(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Store) read() error {
	f, err := os.Open(s.path)
	if err != nil {
		return &Error{s.path, "cannot be read: " + err.Error(), "check the path"}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxStoreBytes+1))
	if err != nil {
		return &Error{s.path, "cannot be read: " + err.Error(), "check the path"}
	}
	if len(data) > maxStoreBytes {
		return &Error{s.path, fmt.Sprintf("is larger than %d MiB", maxStoreBytes>>20), "give webagent's passkey store, not another file"}
	}
	fix := "give a file webagent --passkeys wrote, or a path that does not exist yet for a new store"
	var v file
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		// The error names a place, never the content (a key).
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return &Error{s.path, fmt.Sprintf("is not JSON (at byte %d)", se.Offset), fix}
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return &Error{s.path, "is not JSON (it ends too early)", fix}
		}
		return &Error{s.path, "is not a passkey store (" + redactJSONError(err) + ")", fix}
	}
	if v.Format != Format || v.Version != Version {
		return &Error{s.path, fmt.Sprintf("is not a passkey store of format %s version %d (it says %q version %d)", Format, Version, v.Format, v.Version), fix}
	}
	for i, c := range v.Credentials {
		if len(c.ID) == 0 || c.RPID == "" || len(c.PrivateKey) == 0 {
			return &Error{s.path, fmt.Sprintf("has a credential (number %d) without credentialId, rpId or privateKey", i+1), fix}
		}
	}
	s.creds = v.Credentials
	return nil
}

// redactJSONError keeps the field of a type error, and nothing of the value.
func redactJSONError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("%s should be a %s", te.Field, te.Type)
	}
	if msg := err.Error(); strings.HasPrefix(msg, "json: unknown field") {
		return msg
	}
	return "malformed"
}

// write saves the store, atomically, mode 0600. The caller holds mu (or
// is Open).
func (s *Store) write() error {
	data, err := json.MarshalIndent(file{Format: Format, Version: Version, Credentials: s.creds}, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.path), ".passkeys-*")
	if err != nil {
		return fmt.Errorf("writing the passkey store: %w", err)
	}
	defer os.Remove(tmp.Name())
	werr := tmp.Chmod(0o600)
	if werr == nil {
		_, werr = tmp.Write(append(data, '\n'))
	}
	if werr == nil {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), s.path)
	}
	if werr != nil {
		return fmt.Errorf("writing the passkey store %s: %w", s.path, werr)
	}
	return nil
}

// Path is the store's file.
func (s *Store) Path() string { return s.path }

// List returns the credentials, by site then user.
func (s *Store) List() []Credential {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Credential, len(s.creds))
	for i, r := range s.creds {
		out[i] = Credential{ID: slices.Clone(r.ID), RPID: r.RPID, UserHandle: slices.Clone(r.UserHandle), UserName: r.UserName,
			UserDisplayName: r.UserDisplayName, PrivateKey: slices.Clone(r.PrivateKey), SignCount: r.SignCount,
			Created: r.Created, LastUsed: r.LastUsed}
	}
	slices.SortStableFunc(out, func(a, b Credential) int {
		return strings.Compare(a.RPID+"\x00"+a.User(), b.RPID+"\x00"+b.User())
	})
	return out
}

// Add keeps c, replacing a credential of the same site and user (or the
// same id), and writes the store. It returns whether one was replaced.
func (s *Store) Add(c Credential) (replaced bool, err error) {
	if len(c.ID) == 0 || c.RPID == "" || len(c.PrivateKey) == 0 {
		return false, errors.New("passkey: a credential needs an id, an rp id and a private key")
	}
	if c.Created.IsZero() {
		c.Created = time.Now().UTC()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := s.creds[:0:0]
	for _, r := range s.creds {
		same := bytes.Equal(r.ID, c.ID) || (r.RPID == c.RPID && len(c.UserHandle) > 0 && bytes.Equal(r.UserHandle, c.UserHandle))
		if same {
			replaced = true
			continue
		}
		kept = append(kept, r)
	}
	s.creds = append(kept, record{ID: slices.Clone(c.ID), RPID: c.RPID, UserHandle: slices.Clone(c.UserHandle), UserName: c.UserName,
		UserDisplayName: c.UserDisplayName, PrivateKey: slices.Clone(c.PrivateKey), SignCount: c.SignCount,
		Created: c.Created.UTC(), LastUsed: c.LastUsed})
	return replaced, s.write()
}

// Used notes that the credential id signed in, with its new signature
// counter, and writes the store. An id the store does not hold is ignored.
func (s *Store) Used(id []byte, signCount int64, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.creds {
		if bytes.Equal(s.creds[i].ID, id) {
			s.creds[i].SignCount = max(s.creds[i].SignCount, signCount)
			s.creds[i].LastUsed = at.UTC()
			return s.write()
		}
	}
	return nil
}

// Remove removes the credentials that id names: a credential id as List's
// IDString gives it, or the start of one (at least 6 characters) that only
// one credential has, or an rp id (all of that site's credentials). It
// returns what it removed.
func (s *Store) Remove(id string) ([]Credential, error) {
	s.mu.Lock()
	var gone []record
	kept := s.creds[:0:0]
	byPrefix := 0
	for _, r := range s.creds {
		if len(id) >= 6 && strings.HasPrefix(base64.RawURLEncoding.EncodeToString(r.ID), id) {
			byPrefix++
		}
	}
	for _, r := range s.creds {
		enc := base64.RawURLEncoding.EncodeToString(r.ID)
		if enc == id || r.RPID == id || (byPrefix == 1 && strings.HasPrefix(enc, id)) {
			gone = append(gone, r)
			continue
		}
		kept = append(kept, r)
	}
	if byPrefix > 1 && len(gone) == 0 {
		s.mu.Unlock()
		return nil, fmt.Errorf("%q starts %d credential ids; give more of the id (webagent passkeys list %s)", id, byPrefix, s.path)
	}
	if len(gone) == 0 {
		s.mu.Unlock()
		return nil, fmt.Errorf("no credential has the id or rp id %q; webagent passkeys list %s shows them", id, s.path)
	}
	s.creds = kept
	err := s.write()
	s.mu.Unlock()
	out := make([]Credential, len(gone))
	for i, r := range gone {
		out[i] = Credential{ID: r.ID, RPID: r.RPID, UserHandle: r.UserHandle, UserName: r.UserName, UserDisplayName: r.UserDisplayName,
			SignCount: r.SignCount, Created: r.Created, LastUsed: r.LastUsed}
	}
	return out, err
}
