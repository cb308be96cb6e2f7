package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/passkey"
)

// sessionFlags are run's lasting sessions: --user-data-dir,
// --storage-state and --save-storage-state, and the passkeys the agent
// holds (--passkeys, --passkeys-create).
type sessionFlags struct {
	userDataDir, storageState, saveStorageState string
	passkeys                                    string
	passkeysCreate                              bool
	store                                       *passkey.Store // --passkeys, opened by validate
}

func (f *sessionFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.userDataDir, "user-data-dir", "", "a persistent browser profile, created if missing and kept: logins, cookies and storage last from run to run (refused while another browser uses it)")
	fs.StringVar(&f.storageState, "storage-state", "", "load cookies and localStorage from this Playwright storage-state JSON file before the first page")
	fs.StringVar(&f.passkeys, "passkeys", "", "a passkey store (a JSON file of mode 0600, created if missing): sites sign in with its passkeys, user verification answered by webagent; manage it with webagent passkeys list|remove FILE")
	fs.BoolVar(&f.passkeysCreate, "passkeys-create", false, "keep in the --passkeys store the passkeys sites create during the task (without it a creation fails for the site with NotAllowedError and the model is told)")
	f.registerSave(fs)
}

// registerSave registers --save-storage-state alone (browser close).
func (f *sessionFlags) registerSave(fs *flag.FlagSet) {
	fs.StringVar(&f.saveStorageState, "save-storage-state", "", "write cookies and localStorage to this file (Playwright's storage-state format, mode 0600) when the run ends, also after a failure")
}

func (f *sessionFlags) validate(cdpURL string) error {
	if f.userDataDir != "" && cdpURL != "" {
		return usagef("--user-data-dir and --cdp-url cannot go together: an attached browser has its own profile")
	}
	if f.storageState != "" {
		if _, err := browser.ReadStorageState(f.storageState); err != nil {
			return usagef("--storage-state: %v; pass a file as Playwright or --save-storage-state writes it", err)
		}
	}
	if f.passkeysCreate && f.passkeys == "" {
		return usagef("--passkeys-create needs --passkeys FILE: the store the created passkeys are kept in")
	}
	if f.passkeys != "" {
		st, err := passkey.Open(f.passkeys)
		if err != nil {
			return usagef("--passkeys: %v", err)
		}
		f.store = st
	}
	if f.saveStorageState != "" {
		if fi, err := os.Stat(filepath.Dir(f.saveStorageState)); err != nil || !fi.IsDir() {
			return usagef("--save-storage-state %q: the folder %s does not exist; create it first", f.saveStorageState, filepath.Dir(f.saveStorageState))
		}
		if fi, err := os.Stat(f.saveStorageState); err == nil && fi.IsDir() {
			return usagef("--save-storage-state %q is a folder; give a file name such as state.json", f.saveStorageState)
		}
	}
	return nil
}

func (f *sessionFlags) apply(o *browser.Options) {
	o.UserDataDir, o.StorageState, o.SaveStorageState = f.userDataDir, f.storageState, f.saveStorageState
	o.Passkeys, o.PasskeysCreate = f.store, f.passkeysCreate
}

// loadedState tells, as the run starts, what the loaded storage state
// holds and which of its sign-ins have expired by their cookies' dates,
// and returns the agent option that names its sites (a sign-in page of one
// of them later means the saved sign-in no longer worked).
func (f *sessionFlags) loadedState(w io.Writer) []agent.Option {
	if f.storageState == "" {
		return nil
	}
	st, err := browser.ReadStorageState(f.storageState)
	if err != nil {
		return nil // validate read it; Launch reports what changed since
	}
	fmt.Fprintf(w, "storage state: loaded %s: %s\n", f.storageState, st.Summary())
	if note := st.ExpiredNote(time.Now()); note != "" {
		fmt.Fprintf(w, "storage state: %s\n", note)
	}
	var domains []string
	for _, c := range st.Cookies {
		if !slices.Contains(domains, c.Domain) {
			domains = append(domains, c.Domain)
		}
	}
	return []agent.Option{agent.WithSavedSignIns(domains)}
}

// savedState tells what the run saved with --save-storage-state.
func (f *sessionFlags) savedState(w io.Writer) {
	if f.saveStorageState == "" {
		return
	}
	st, err := browser.ReadStorageState(f.saveStorageState)
	if err != nil {
		fmt.Fprintf(w, "storage state: not saved to %s: %v\n", f.saveStorageState, err)
		return
	}
	fmt.Fprintf(w, "storage state: saved to %s: %s\n", f.saveStorageState, st.Summary())
}
