package browser

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/webagent/webagent/browser/launcher"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/internal/egress"
	"github.com/webagent/webagent/passkey"
)

// Options configure Launch. The zero value launches a headless Chromium
// found on PATH with a 1280x900 viewport.
type Options struct {
	// ChromePath is the Chromium or Chrome binary. If empty, $CHROME_PATH is
	// used, else the first of chromium, chromium-browser, google-chrome and
	// google-chrome-stable found on PATH.
	ChromePath string
	// CDPURL attaches to a running browser instead of launching one: its
	// DevTools address, ws://host:port/devtools/browser/<id> or
	// http://host:port. The Browser opens a tab of its own and Close closes
	// only the tabs of this Browser.
	CDPURL string
	// Isolated opens the Browser's tabs in a browser context of their own
	// (like an incognito window: own cookies and storage), disposed of on
	// Close. It works when launching and when attaching.
	Isolated bool
	// DownloadDir is where downloads are saved; each finished one is
	// reported in the next snapshot's notices. If empty, a temporary folder
	// removed on Close. A browser attached to without Isolated keeps its own
	// download settings unless DownloadDir is set.
	DownloadDir string
	// Headful shows a browser window (it needs a display).
	Headful bool
	// Logger receives the browser's diagnostics; nil logs nothing.
	Logger *slog.Logger
	// Width and Height are the viewport size in CSS pixels; 1280x900 if not
	// set.
	Width, Height int
	// SnapshotTokens is the snapshot's size budget in (estimated) tokens;
	// DefaultSnapshotTokens if 0. Past it, the snapshot keeps every
	// actionable element and what is in and near the viewport, and
	// summarises the rest with the way to reach it.
	SnapshotTokens int
	// BlockNonLoopback refuses every request whose host is not loopback
	// (for benchmarks and tests on saved pages without network).
	BlockNonLoopback bool
	// UploadDir is the folder the upload action takes files from; the
	// model names files relative to it. Uploads are refused when empty.
	UploadDir string
	// AllowFileURLs lets goto open file: URLs (to look at a local report,
	// for example). Never set it for an agent that reads untrusted pages:
	// a page could then lead it to the machine's files.
	AllowFileURLs bool
	// CPUThrottle slows every page and frame down by this factor (CDP CPU
	// throttling), to reproduce a slow or busy machine; 0 or 1 is none,
	// at most MaxCPUThrottle.
	CPUThrottle float64
	// LoadTimeout is how long a page's document may take to be parsed (its
	// body trickling in, a script it waits for never answering) before the
	// snapshot and the actions use what has arrived, and say that the page
	// is still loading; DefaultLoadTimeout if 0.
	LoadTimeout time.Duration
	// Observable lets pages observe that a DevTools client drives the
	// browser, for what needs the page's own world: the canvas log (what
	// pages draw on their 2-D canvases, texts, shapes, colours and boxes,
	// listed in the snapshot under each canvas: a canvas game's score, its
	// red circle), which wraps the canvas methods, and the pages' console
	// messages and uncaught errors in traces (RecordActivity), which only
	// a client with the Runtime domain enabled receives. webagent's
	// programs then run in the page's world too. Off, a page sees no trace
	// of webagent (quiet.go, world.go), and traces keep the network only.
	// For benchmarks of canvas tasks (MiniWoB++) and for debugging a page,
	// rather than sites that look for bots. Off by default.
	Observable bool
	// RecordActivity keeps the console messages and network requests of
	// the tabs for TakeActivity, for traces. Off by default.
	RecordActivity bool
	// ReadOnly stops, inside Chromium, every request that would write to
	// a site before it leaves: a POST, PUT, PATCH or DELETE of a form, a
	// fetch or XHR, a beacon or a worker, of every frame. Each is kept
	// with what it would have sent (TakeBlocked, for traces) and told in
	// the outcome of the action during which the page made it (or the
	// next snapshot's notices). An action that gave the page input and so
	// submitted a form, or sent a fetch or XHR to the page's own site,
	// fails with what would have been sent; a write made while a page
	// loads, or a beacon or request to another site (analytics, mostly)
	// is told without failing the action. A blocked page load leaves the
	// page as it was; a blocked fetch or XHR fails in the page as a
	// request refused by the browser. GET, HEAD and OPTIONS go on.
	// WebSocket messages are not requests and are not stopped.
	ReadOnly bool
	// PageTools lets every page offer the agent tools (WebMCP): Chromium
	// runs with its WebMCPTesting feature (launcher.PageToolsFeature), so
	// every page sees document.modelContext and the globals ModelContext,
	// ToolActivatedEvent and ToolCancelEvent, which tell webagent's
	// browser from a person's. Off (the default), pages see what a plain
	// Chromium of the same version shows them: only a page that turns
	// WebMCP on for itself, with a token of Chrome's WebMCP origin trial
	// (<meta http-equiv="origin-trial">, or the Origin-Trial header),
	// offers tools, as it would to a person's browser; snapshots list
	// them and page_tool calls them either way. A browser attached to
	// (CDPURL) offers what it was started with.
	PageTools bool
	// launchFlags are Chromium switches added to those of a launched
	// browser or a server, for tests (an origin-trial key of their own).
	launchFlags map[string]any

	// UserAgent replaces the browser's user agent (navigator.userAgent and
	// the User-Agent header) when set.
	UserAgent string
	// Locale is a BCP 47 tag such as de-DE: navigator.language, the
	// Accept-Language header and Intl's formats.
	Locale string
	// Timezone is an IANA time zone such as Europe/Berlin for the pages'
	// clocks.
	Timezone string
	// Proxy routes the browser's traffic, loopback included, through a
	// proxy: http://host:port (or https, socks4, socks5), optionally with
	// user:password@, which the Browser's egress sends to the proxy and
	// never logs. Not used when attaching (CDPURL).
	Proxy string
	// ExtraHeaders are sent with every request of every page, to every
	// site.
	ExtraHeaders map[string]string
	// Signer, when set, signs every request the Browser's pages, frames
	// and workers send (documents, each redirect hop, subresources, fetch
	// and XHR, beacons, form posts), inside Chromium, as it leaves: Web
	// Bot Auth's headers for the request's authority (botauth.Signer).
	// Headers of those names a page set itself are replaced.
	Signer RequestSigner
	// SignDomains limits signing to requests to these sites; empty signs
	// requests to every site.
	SignDomains []contract.DomainPattern

	// UserDataDir is a persistent profile: cookies, storage and logins
	// outlive the run, and a later run with the same folder finds them.
	// It is created if missing and never removed; Launch refuses it with
	// a *ConfigError while another browser uses it. Without it, a fresh
	// temporary profile removed on Close.
	UserDataDir string
	// StorageState is a Playwright storage-state JSON file (cookies and
	// localStorage by origin) loaded before the first page opens.
	StorageState string
	// SaveStorageState is where Close writes the storage state (mode
	// 0600: it holds credentials), also after a failed task; SaveStorageState
	// writes it on demand.
	SaveStorageState string
	// Passkeys, when set, backs a WebAuthn virtual authenticator in every
	// tab with the store's credentials (passkeys.go): sites sign in with
	// them, user verification answered by webagent. A passkey a site
	// creates is kept in the store only with PasskeysCreate; without it the
	// site's navigator.credentials.create fails with NotAllowedError, as a
	// refused authenticator's does (the site stores nothing), and the
	// notices say so.
	Passkeys       *passkey.Store
	PasskeysCreate bool
	// Consent answers cookie-consent banners before the snapshot shows
	// them: ConsentReject refuses every cookie that is not necessary,
	// ConsentAccept accepts them all; the notices say what was done.
	// OneTrust, Cookiebot, Didomi and Usercentrics are answered through
	// their own API, an IAB TCF platform's banner or a site's own cookie
	// dialog by clicking its button. Empty leaves banners to the model.
	Consent string

	proxy Proxy // Proxy, parsed by checkSettings
}

// DefaultLoadTimeout is the default of Options.LoadTimeout.
const DefaultLoadTimeout = 10 * time.Second

// Errors returned by this package. Only ErrChromeNotFound (and a
// *ConfigError) comes from Launch; the others mean the
// Browser can no longer be used.
var (
	// ErrChromeNotFound: no Chromium binary was found.
	ErrChromeNotFound = launcher.ErrNotFound
	// ErrClosed: the Browser was closed.
	ErrClosed = errors.New("browser: closed")
	// ErrCrashed: the tab's renderer crashed. A call that meets it brings
	// the tab back (a new tab at its last URL) and returns an
	// *contract.ActionError that says so.
	ErrCrashed = errors.New("browser: the tab crashed")
	// ErrDisconnected: the connection to Chromium was lost, or the tab was
	// closed from outside.
	ErrDisconnected = errors.New("browser: lost the connection to the tab")
)

// Browser is one Chromium tab driven over CDP. It implements contract.Browser.
//
// Its state is grouped by the part that owns it: calls (the op and Close),
// connection (the session and its relaunch), tabSet (the tabs and the
// current one), and what the Browser keeps about its pages.
type Browser struct {
	log           *slog.Logger
	opts          Options
	width, height int // the viewport: Options.Width and Height, or the default

	calls
	connection
	tabSet

	// What the Browser keeps about its pages.
	snap      snapState    // the snapshot's settings and memory; guarded by sem
	notices   notices      // what happened that the next snapshot tells
	consent   consentState // the current document's cookie banner (Options.Consent); guarded by sem
	guard     egress.Guard // where the tabs may go (Confine), for the egress too
	refused   refusals     // the guard's last refusal of a document, for goto
	egress    egressProxy  // the proxy every request leaves through; nil when attached to a shared context
	downloads downloads    // the download folder and the downloads under way
	activity  activityLog  // console and network activity, for traces (Options.RecordActivity)
	writes    writeLog     // the requests Options.ReadOnly stopped
	origins   originSet    // the origins whose localStorage the storage state keeps
	defaultUA string       // the browser's own user agent, when only a locale is set
	hints     uaHints      // what the tabs' client hints are made of (clienthints.go)
	worlds    worlds       // webagent's isolated world in each target (world.go)
}

// calls serialise the calls of a Browser (begin, op.end) and end them
// (Close).
type calls struct {
	// sem serializes calls; a call holds it until what it left running in
	// Chromium is undone.
	sem chan struct{}
	// broken ends when the Browser becomes unusable (closed, or its
	// browser died twice); its cause says why.
	broken context.Context
	breakf context.CancelCauseFunc

	closed    chan struct{}
	closeOnce sync.Once
	closeErr  error
	wg        sync.WaitGroup // goroutines that must end before Close returns

	groups int // ops that made an object group; guarded by sem
}

// connection is the browser the Browser talks to: a session, replaced by a
// relaunch when its browser died (startSession, relaunch). Changed only by
// a caller that holds sem.
type connection struct {
	sess      *session
	relaunchs int // browsers relaunched after the first died
	// What a relaunch reopens: the current tab's id and URL when its
	// browser died.
	reopenURL, reopenID string
	pid                 atomic.Int64                     // the launched browser's process id, for PID
	proc                atomic.Pointer[launcher.Process] // the launched browser, for Abandon; nil when attached
}

// tabSet is the Browser's tabs and the current one, cur, in which it acts
// (setCurrent): target, nav and tabCtx are cur's. Changed only by a caller that
// holds sem; calls use the caller's ctx for their own deadline only.
type tabSet struct {
	tabs   []*tab
	cur    *tab
	tabSeq int

	target guarded
	nav    *navTracker
	tabCtx context.Context // the current tab's chromedp context
	shown  shownTab        // cur, for a screencast, which reads it without sem
	typing atomic.Bool     // a person's keys went to the focused field, told (person.go)

	listed listed // the latest list of the browser's targets (adoptOpened)
}

// listed is when adoptOpened last listed the browser's targets: its
// session and the session's pageEvents then, and whether the next call
// must list them again anyway (it took in a tab, whose own new tabs may
// have been listed before it, or failed to take in one).
type listed struct {
	sess   *session
	events uint64
	again  bool
}

var _ contract.Browser = (*Browser)(nil)

const (
	// settleLoad is how long a navigation waits for the load event after
	// DOMContentLoaded. It never fails: a page whose images hang is usable.
	settleLoad = 1500 * time.Millisecond
	// cleanupTimeout bounds the clean-up commands sent after a caller's
	// context ended (stop loading, terminate a script).
	cleanupTimeout = 2 * time.Second
)
