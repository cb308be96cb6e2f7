package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// StorageState is what a browser keeps for the sites a user signed in to:
// cookies, and localStorage by origin. Its JSON is Playwright's
// storage-state format (context.storageState()), so a state saved by
// Playwright loads here and the other way round. It holds credentials:
// files are written with mode 0600 and never logged.
type StorageState struct {
	Cookies []StateCookie `json:"cookies"`
	Origins []StateOrigin `json:"origins"`
}

// StateCookie is one cookie; Expires is in seconds since the epoch, -1
// for a session cookie.
type StateCookie struct {
	Name     string  `json:"name"`
	Value    string  `json:"value"`
	Domain   string  `json:"domain"`
	Path     string  `json:"path"`
	Expires  float64 `json:"expires"`
	HTTPOnly bool    `json:"httpOnly"`
	Secure   bool    `json:"secure"`
	SameSite string  `json:"sameSite,omitempty"` // Strict, Lax or None
}

// StateOrigin is the localStorage of one origin.
type StateOrigin struct {
	Origin       string      `json:"origin"`
	LocalStorage []NameValue `json:"localStorage"`
}

// NameValue is one localStorage item.
type NameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Bounds of the storage state.
const (
	// MaxStorageStateBytes bounds a storage-state file read.
	MaxStorageStateBytes = 16 << 20
	// maxStateOrigins bounds the origins whose localStorage is kept.
	maxStateOrigins = 100
	// storageStateTimeout bounds loading or saving the state.
	storageStateTimeout = 15 * time.Second
)

// ReadStorageState reads and checks a storage-state file. Its errors name
// the file and what is wrong, never a cookie's value.
func ReadStorageState(path string) (*StorageState, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the storage state: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxStorageStateBytes+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read the storage state %s: %w", path, err)
	}
	if len(data) > MaxStorageStateBytes {
		return nil, fmt.Errorf("the storage state %s is larger than %d MiB", path, MaxStorageStateBytes>>20)
	}
	var st StorageState
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if err := dec.Decode(&st); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("the storage state %s is not JSON (at byte %d: %s)", path, se.Offset, se.Error())
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("the storage state %s is not in Playwright's format: %s should be a %s", path, te.Field, te.Type)
		}
		return nil, fmt.Errorf("the storage state %s is not JSON: %v", path, err)
	}
	for i, c := range st.Cookies {
		if c.Name == "" || c.Domain == "" {
			return nil, fmt.Errorf("the storage state %s: cookie %d has no name or no domain", path, i)
		}
		switch c.SameSite {
		case "", "Strict", "Lax", "None":
		default:
			return nil, fmt.Errorf("the storage state %s: cookie %s has sameSite %q; use Strict, Lax or None", path, c.Name, c.SameSite)
		}
	}
	for _, o := range st.Origins {
		if _, err := originOf(o.Origin); err != nil {
			return nil, fmt.Errorf("the storage state %s: origin %q is not an http or https origin", path, o.Origin)
		}
	}
	if len(st.Origins) > maxStateOrigins {
		return nil, fmt.Errorf("the storage state %s has %d origins; at most %d are loaded", path, len(st.Origins), maxStateOrigins)
	}
	return &st, nil
}

// WriteStorageState writes st to path with mode 0600, atomically (a
// reader never sees half a file).
func WriteStorageState(path string, st *StorageState) error {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".storage-state-*")
	if err != nil {
		return fmt.Errorf("writing the storage state: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("writing the storage state: %w", err)
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("writing the storage state: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing the storage state: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing the storage state: %w", err)
	}
	return nil
}

// loadStorageStateOpt reads Options.StorageState, if set, as a
// *ConfigError when it is unusable.
func loadStorageStateOpt(path string) (*StorageState, error) {
	if path == "" {
		return nil, nil
	}
	st, err := ReadStorageState(path)
	if err != nil {
		return nil, &ConfigError{Problem: err.Error(), Fix: "pass a storage-state JSON file as Playwright writes it ({\"cookies\": [...], \"origins\": [...]}), e.g. one written by --save-storage-state", Err: err}
	}
	return st, nil
}

// originOf is the origin (scheme://host[:port]) of an http or https URL.
func originOf(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", errors.New("not an http or https URL")
	}
	return u.Scheme + "://" + u.Host, nil
}

// originSet is the origins whose localStorage the saved state keeps: those
// of the loaded state and of every page opened.
type originSet struct {
	mu   sync.Mutex
	list []string
}

func (o *originSet) add(raw string) {
	origin, err := originOf(raw)
	if err != nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, x := range o.list {
		if x == origin {
			return
		}
	}
	if len(o.list) < maxStateOrigins {
		o.list = append(o.list, origin)
	}
}

func (o *originSet) all() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.list...)
}

// applyStorageState sets the state's cookies and localStorage. ctx bounds
// it, within storageStateTimeout.
func (b *Browser) applyStorageState(ctx context.Context, st *StorageState) error {
	ctx, cancel := context.WithTimeout(ctx, storageStateTimeout)
	defer cancel()
	s := b.sess
	if len(st.Cookies) > 0 {
		var params []*network.CookieParam
		for _, c := range st.Cookies {
			p := &network.CookieParam{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path,
				Secure: c.Secure, HTTPOnly: c.HTTPOnly, SameSite: network.CookieSameSite(c.SameSite)}
			if p.Path == "" {
				p.Path = "/"
			}
			if c.Expires > 0 {
				p.Expires = cdp.TimeSinceEpoch(c.Expires)
			}
			params = append(params, p)
		}
		if _, err := cdp.Call(ctx, s.browser, storage.SetCookies, storage.SetCookiesParams{Cookies: params, BrowserContextID: s.bcID}); err != nil {
			return fmt.Errorf("setting the cookies: %w", err)
		}
	}
	var origins []StateOrigin
	for _, o := range st.Origins {
		b.origins.add(o.Origin)
		if len(o.LocalStorage) > 0 {
			origins = append(origins, o)
		}
	}
	if len(origins) == 0 {
		return nil
	}
	return b.withLoader(ctx, s, func(l *loader) error {
		for _, o := range origins {
			if _, err := l.evalAt(ctx, o.Origin, jsCall(setLocalStorageJS, o.LocalStorage)); err != nil {
				return fmt.Errorf("setting the localStorage of %s: %w", o.Origin, err)
			}
		}
		return nil
	})
}

// ReadStorageState reads the browser's cookies and the localStorage of
// the origins opened (and loaded), in Playwright's format.
func (b *Browser) ReadStorageState(ctx context.Context) (*StorageState, error) {
	select {
	case b.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-b.closed:
		return nil, ErrClosed
	}
	defer func() { <-b.sem }()
	return b.readState(ctx)
}

// readState is ReadStorageState for a caller that holds sem.
func (b *Browser) readState(ctx context.Context) (*StorageState, error) {
	ctx, cancel := context.WithTimeout(ctx, storageStateTimeout)
	defer cancel()
	s := b.sess
	if s == nil || !s.alive() {
		return nil, errors.New("browser: the browser is gone; its storage cannot be read")
	}
	st := &StorageState{Cookies: []StateCookie{}, Origins: []StateOrigin{}}
	res, err := cdp.Call(ctx, s.browser, storage.GetCookies, storage.GetCookiesParams{BrowserContextID: s.bcID})
	if err != nil {
		return nil, fmt.Errorf("browser: reading the cookies: %w", err)
	}
	for _, c := range res.Cookies {
		exp := c.Expires
		if c.Session {
			exp = -1
		}
		st.Cookies = append(st.Cookies, StateCookie{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path,
			Expires: exp, HTTPOnly: c.HTTPOnly, Secure: c.Secure, SameSite: string(c.SameSite)})
	}
	origins := b.origins.all()
	sort.Strings(origins)
	if len(origins) == 0 {
		return st, nil
	}
	err = b.withLoader(ctx, s, func(l *loader) error {
		for _, o := range origins {
			v, err := l.evalAt(ctx, o, jsCall(readLocalStorageJS))
			if err != nil {
				return fmt.Errorf("reading the localStorage of %s: %w", o, err)
			}
			var items []NameValue
			if err := json.Unmarshal([]byte(v), &items); err != nil {
				return fmt.Errorf("reading the localStorage of %s: %w", o, err)
			}
			if len(items) > 0 {
				st.Origins = append(st.Origins, StateOrigin{Origin: o, LocalStorage: items})
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("browser: %w", err)
	}
	return st, nil
}

// SaveStorageState writes the storage state to path (mode 0600).
func (b *Browser) SaveStorageState(ctx context.Context, path string) error {
	st, err := b.ReadStorageState(ctx)
	if err != nil {
		return err
	}
	return WriteStorageState(path, st)
}

// loader is a hidden tab that opens an origin without reaching it: the
// navigation guard answers its document requests with an empty page
// (interceptor.answer), so that the origin's localStorage can be read and
// written, as Playwright does.
type loader struct {
	b   *Browser
	ctx context.Context
	t   *chromedp.Target
	id  target.ID
}

// withLoader runs f with a loader tab of the session, closed afterwards.
func (b *Browser) withLoader(ctx context.Context, s *session, f func(*loader) error) error {
	var opts []chromedp.ContextOption
	if s.bcID != "" {
		opts = append(opts, chromedp.WithExistingBrowserContext(s.bcID))
	}
	tctx, cancel := chromedp.NewContext(s.ctx, opts...)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	err := chromedp.Do(tctx)
	if !stop() && err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("opening a tab for the storage: %w", err)
	}
	t := chromedp.FromContext(tctx).Target
	l := &loader{b: b, ctx: tctx, t: t, id: t.TargetID}
	s.icpt.addLoader(l.id)
	defer s.icpt.dropLoader(l.id)
	return f(l)
}

// The programs of the loader: setLocalStorageJS stores items (name and
// value pairs) in the localStorage of the document's origin,
// readLocalStorageJS returns them as JSON, and onOriginJS reports whether
// the document is on an origin yet.
var (
	setLocalStorageJS  = program("setLocalStorage")
	readLocalStorageJS = program("readLocalStorage")
	onOriginJS         = program("onOrigin")
)

// evalAt opens origin in the loader and evaluates expr there, returning
// its string value.
func (l *loader) evalAt(ctx context.Context, origin, expr string) (string, error) {
	if _, err := cdp.Call(ctx, l.t, page.Navigate, page.NavigateParams{URL: origin + "/"}); err != nil {
		return "", err
	}
	// The empty page commits at once; the evaluation checks it runs there.
	expr = "(" + jsCall(onOriginJS, origin) + " ? String(" + expr + ") : \"\\u0000not yet\")"
	for {
		res, err := cdp.Call(ctx, l.t, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, ReturnByValue: new(true)})
		if err != nil {
			return "", err
		}
		if res.ExceptionDetails != nil {
			return "", fmt.Errorf("%s", res.ExceptionDetails.Text)
		}
		var v string
		if err := json.Unmarshal(res.Result.Value, &v); err != nil {
			return "", err
		}
		if v != "\x00not yet" {
			return v, nil
		}
		if err := ctx.Err(); err != nil {
			return "", err
		}
	}
}

// saveOnClose writes Options.SaveStorageState, if set, as Close begins:
// also after a failed task, as long as the browser still answers. The
// caller holds sem.
func (b *Browser) saveOnClose() error {
	if b.opts.SaveStorageState == "" || b.sess == nil {
		return nil
	}
	st, err := b.readState(context.Background())
	if err != nil {
		return fmt.Errorf("browser: saving the storage state to %s: %w", b.opts.SaveStorageState, err)
	}
	if err := WriteStorageState(b.opts.SaveStorageState, st); err != nil {
		return fmt.Errorf("browser: saving the storage state to %s: %w", b.opts.SaveStorageState, err)
	}
	return nil
}

// addLoader marks a storage-state tab, whose documents are answered with
// an empty page.
func (in *interceptor) addLoader(id target.ID) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.loaders == nil {
		in.loaders = map[target.ID]bool{}
	}
	in.loaders[id] = true
}

func (in *interceptor) dropLoader(id target.ID) {
	in.mu.Lock()
	defer in.mu.Unlock()
	delete(in.loaders, id)
}

func (in *interceptor) isLoader(id target.ID) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.loaders[id]
}

// fulfilEmpty answers a loader's request with an empty page of its origin.
func (in *interceptor) fulfilEmpty(ctx context.Context, e *fetch.EventRequestPaused) {
	_, err := cdp.Call(ctx, in.s.browser, fetch.FulfillRequest, fetch.FulfillRequestParams{
		RequestID: e.RequestID, ResponseCode: 200,
		ResponseHeaders: []*fetch.HeaderEntry{{Name: "Content-Type", Value: "text/html"}},
		Body:            []byte("<!doctype html><title></title>"),
	})
	if err != nil && ctx.Err() == nil {
		in.b.log.Debug("answering the storage tab", "error", err)
	}
}
