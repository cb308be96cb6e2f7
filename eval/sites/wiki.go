package sites

import (
	"html/template"
	"net/http"
	"regexp"
	"strings"
	"sync"
)

// WikiPage is one page of the wiki.
type WikiPage struct {
	Slug     string
	Title    string
	Intro    template.HTML
	Sections []WikiSection
}

// WikiSection is a titled part of a page; the table of contents links to it
// by ID.
type WikiSection struct {
	ID, Heading string
	Body        template.HTML
}

// The documentation of "Lantern", a fictional static-site server.
var wikiPages = []WikiPage{
	{Slug: "Main_Page", Title: "Lantern documentation",
		Intro: `<p>Lantern is a small static-site server and builder. This wiki documents version 3.2.1.</p>
<p>New to Lantern? Start with <a href="/wiki/Getting_started">Getting started</a>, then read <a href="/wiki/Installation">Installation</a> and <a href="/wiki/Configuration">Configuration</a>.</p>`,
		Sections: []WikiSection{
			{"guides", "Guides", `<ul><li><a href="/wiki/Getting_started">Getting started</a></li><li><a href="/wiki/Installation">Installation</a></li>
<li><a href="/wiki/Configuration">Configuration</a></li><li><a href="/wiki/Command_line">Command line</a></li><li><a href="/wiki/Plugins">Plugins</a></li></ul>`},
			{"help", "Help", `<ul><li><a href="/wiki/Troubleshooting">Troubleshooting</a></li><li><a href="/wiki/Release_notes">Release notes</a></li><li><a href="/wiki/Glossary">Glossary</a></li></ul>`},
		}},
	{Slug: "Getting_started", Title: "Getting started",
		Intro: `<p>This guide takes you from nothing to a running site in five minutes.</p>`,
		Sections: []WikiSection{
			{"requirements", "Requirements", `<p>Lantern runs on Linux, macOS and Windows. It needs at least 512 MB of memory and 200 MB of disk space. Building very large sites (over 10,000 pages) needs 2 GB of memory.</p>`},
			{"first-site", "Your first site", `<p>Run <code>lantern new mysite</code> to create a site, then <code>lantern serve</code> inside it. The server listens on port 7420 by default: open http://127.0.0.1:7420/ in a browser.</p>
<p>To change the port, see <a href="/wiki/Configuration#options">the configuration options</a>.</p>`},
			{"next-steps", "Next steps", `<p>Read about <a href="/wiki/Plugins">plugins</a> to add a sitemap or a search index, and about the <a href="/wiki/Command_line">command line</a>.</p>`},
		}},
	{Slug: "Installation", Title: "Installation",
		Intro: `<p>Lantern ships as a single binary.</p>`,
		Sections: []WikiSection{
			{"linux", "Linux", `<p>On Debian and Ubuntu, run <code>apt install lantern</code>. On Fedora, run <code>dnf install lantern</code>.</p>`},
			{"macos", "macOS", `<p>Run <code>brew install lantern</code>.</p>`},
			{"windows", "Windows", `<p>Download lantern-3.2.1-windows.zip, unpack it, and add the folder to your PATH.</p>`},
			{"verify", "Verifying the installation", `<p>Run <code>lantern version</code>. It prints <code>lantern 3.2.1</code>.</p>`},
		}},
	{Slug: "Configuration", Title: "Configuration",
		Intro: `<p>Lantern reads its settings from a TOML file and from environment variables. Environment variables win.</p>`,
		Sections: []WikiSection{
			{"file", "Configuration file", `<p>The file is <code>lantern.toml</code> in the site's root folder. Set <code>LANTERN_CONFIG</code> to read another file.</p>`},
			{"options", "Options", `<table id="options-table"><thead><tr><th>Option</th><th>Default</th><th>Description</th></tr></thead><tbody>
<tr><td>port</td><td>7420</td><td>TCP port the server listens on</td></tr>
<tr><td>host</td><td>127.0.0.1</td><td>Address the server binds to</td></tr>
<tr><td>workers</td><td>4</td><td>Pages built in parallel</td></tr>
<tr><td>cache_size</td><td>256 MB</td><td>Memory for the page cache</td></tr>
<tr><td>log_level</td><td>info</td><td>One of debug, info, warn, error</td></tr>
<tr><td>timeout</td><td>30s</td><td>How long a request may take</td></tr>
</tbody></table>`},
			{"environment", "Environment variables", `<p>Every option can be set as <code>LANTERN_</code> followed by its name in capitals, for example <code>LANTERN_PORT=8080</code>.</p>`},
		}},
	{Slug: "Command_line", Title: "Command line",
		Intro: `<p>Every command is run as <code>lantern COMMAND [flags]</code>.</p>`,
		Sections: []WikiSection{
			{"commands", "Commands", `<table><thead><tr><th>Command</th><th>What it does</th></tr></thead><tbody>
<tr><td>new</td><td>Creates a site from the starter template</td></tr>
<tr><td>serve</td><td>Builds the site and serves it, rebuilding on changes</td></tr>
<tr><td>build</td><td>Writes the site to the public folder</td></tr>
<tr><td>check</td><td>Finds broken links and missing images</td></tr>
<tr><td>clean</td><td>Deletes the public folder; with --cache, also the cache</td></tr>
<tr><td>version</td><td>Prints the version</td></tr>
</tbody></table>`},
			{"flags", "Common flags", `<p><code>--port N</code> overrides the port, <code>--quiet</code> hides progress, and <code>--drafts</code> includes draft pages.</p>`},
		}},
	{Slug: "Plugins", Title: "Plugins",
		Intro: `<p>Plugins add features at build time. List them under <code>[plugins]</code> in lantern.toml.</p>`,
		Sections: []WikiSection{
			{"official", "Official plugins", `<table><thead><tr><th>Plugin</th><th>Version</th><th>Maintainer</th></tr></thead><tbody>
<tr><td>sitemap</td><td>1.4.0</td><td>Ada Okafor</td></tr>
<tr><td>minify</td><td>2.0.3</td><td>Lars Berg</td></tr>
<tr><td>feeds</td><td>1.1.2</td><td>Ada Okafor</td></tr>
<tr><td>search-index</td><td>0.9.1</td><td>Mei Chen</td></tr>
<tr><td>image-resize</td><td>1.7.0</td><td>Lars Berg</td></tr>
</tbody></table>`},
			{"writing", "Writing a plugin", `<p>A plugin is a folder under <code>plugins/</code> with a <code>plugin.toml</code> and a script. The plugin API was added in version 3.2.0.</p>`},
		}},
	{Slug: "Troubleshooting", Title: "Troubleshooting",
		Intro: `<p>Solutions to common problems. If yours is not here, ask on the mailing list.</p>`,
		Sections: []WikiSection{
			{"port-in-use", "Port already in use", `<p>The error <code>bind: address already in use</code> means another program listens on Lantern's port. Stop it, or start Lantern on another port with <code>lantern serve --port 7421</code>.</p>`},
			{"permission-denied", "Permission denied", `<p>Ports below 1024 need administrator rights. Use a port above 1024.</p>`},
			{"slow-builds", "Slow builds", `<p>Raise <code>workers</code> to the number of CPU cores, and turn on the cache.</p>`},
			{"stale-pages", "Stale pages after an upgrade", `<p>Run <code>lantern clean --cache</code> to delete the page cache, then build again.</p>`},
		}},
	{Slug: "Release_notes", Title: "Release notes",
		Intro: `<p>Every release of Lantern 3, newest first.</p>`,
		Sections: []WikiSection{
			{"v3-2-1", "3.2.1 (2026-02-14)", `<ul><li>Fixed a crash when a page had an empty title.</li><li>The check command now follows redirects.</li></ul>`},
			{"v3-2-0", "3.2.0 (2026-01-20)", `<ul><li>Added the plugin API.</li><li>Added the <code>--drafts</code> flag.</li></ul>`},
			{"v3-1-0", "3.1.0 (2025-11-03)", `<ul><li>Builds use 4 workers by default instead of 2.</li></ul>`},
			{"v3-0-0", "3.0.0 (2025-08-30)", `<ul><li>Removed the legacy <code>lamp</code> command.</li><li>Configuration moved from YAML to TOML.</li></ul>`},
		}},
	{Slug: "Glossary", Title: "Glossary",
		Sections: []WikiSection{
			{"terms", "Terms", `<dl><dt>Draft</dt><dd>A page with <code>draft = true</code>; left out of builds unless --drafts is given.</dd>
<dt>Public folder</dt><dd>Where build writes the finished site; <code>public/</code> by default.</dd>
<dt>Starter template</dt><dd>The files lantern new copies into a new site.</dd></dl>`},
		}},
}

// Wiki is a read-only documentation wiki: pages with a table of contents and
// links, and a search box. Its state records the searches and page views.
type Wiki struct {
	mu       sync.Mutex
	searches []string
	views    []string
}

// NewWiki returns the wiki with no searches or views recorded.
func NewWiki() *Wiki { return &Wiki{} }

// Reset forgets the searches and views.
func (k *Wiki) Reset() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.searches, k.views = nil, nil
}

// State is {"searches": [query...], "views": [slug...]}.
func (k *Wiki) State() map[string]any {
	k.mu.Lock()
	defer k.mu.Unlock()
	s, v := k.searches, k.views
	if s == nil {
		s = []string{}
	}
	if v == nil {
		v = []string{}
	}
	return stateOf(map[string]any{"searches": s, "views": v})
}

var wikiTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("wiki").Parse(`
{{define "head"}}<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}} - Lantern Wiki</title>
<style>` + baseCSS + `
.layout{display:flex;gap:2em}.side{min-width:12em}.toc{background:#fff;border:1px solid #ddd;padding:.4em 1em;display:inline-block}
code{background:#eee;padding:0 .2em}</style></head>
<body><header><h1><a href="/wiki/Main_Page">Lantern Wiki</a></h1>
<form method="get" action="/search" role="search"><label for="q">Search docs</label> <input type="search" id="q" name="q" value="{{.Q}}"> <button type="submit">Search</button></form></header>
<main class="layout"><nav class="side" aria-label="Pages"><ul>{{range .All}}<li><a href="/wiki/{{.Slug}}">{{.Title}}</a></li>{{end}}</ul></nav><div>{{end}}

{{define "foot"}}</div></main></body></html>{{end}}

{{define "page"}}{{template "head" .}}
<article><h1>{{.Page.Title}}</h1>{{.Page.Intro}}
{{if gt (len .Page.Sections) 1}}<nav class="toc" aria-label="Contents"><h2>Contents</h2><ol>{{range .Page.Sections}}<li><a href="#{{.ID}}">{{.Heading}}</a></li>{{end}}</ol></nav>{{end}}
{{range .Page.Sections}}<section id="{{.ID}}"><h2>{{.Heading}}</h2>{{.Body}}</section>{{end}}
</article>
{{template "foot" .}}{{end}}

{{define "search"}}{{template "head" .}}
<h1>Search results</h1>
{{if .Q}}<p>{{len .Results}} {{if eq (len .Results) 1}}result{{else}}results{{end}} for “{{.Q}}”.</p>{{else}}<p>Type words to search for.</p>{{end}}
<ol class="results">{{range .Results}}<li><a href="/wiki/{{.Slug}}{{if .Anchor}}#{{.Anchor}}{{end}}">{{.Title}}</a><p>{{.Snippet}}</p></li>{{end}}</ol>
{{template "foot" .}}{{end}}
`))
})

type wikiHit struct {
	Slug, Title, Anchor, Snippet string
}

var tagRe = regexp.MustCompile(`<[^>]*>`)

func plain(h template.HTML) string {
	return strings.Join(strings.Fields(tagRe.ReplaceAllString(string(h), " ")), " ")
}

func (k *Wiki) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/":
		http.Redirect(w, r, "/wiki/Main_Page", http.StatusSeeOther)
	case r.URL.Path == "/search":
		k.search(w, r)
	case strings.HasPrefix(r.URL.Path, "/wiki/"):
		slug := strings.TrimPrefix(r.URL.Path, "/wiki/")
		for _, p := range wikiPages {
			if p.Slug == slug {
				k.mu.Lock()
				k.views = append(k.views, slug)
				k.mu.Unlock()
				render(w, 0, wikiTmpl(), "page", map[string]any{"Title": p.Title, "Page": p, "All": wikiPages})
				return
			}
		}
		w.WriteHeader(http.StatusNotFound)
		render(w, 0, wikiTmpl(), "page", map[string]any{"Title": "Not found", "All": wikiPages,
			"Page": WikiPage{Title: "No such page", Intro: template.HTML("<p>There is no page called " + template.HTMLEscapeString(slug) + ". Try the search box.</p>")}})
	default:
		http.NotFound(w, r)
	}
}

func (k *Wiki) search(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	var hits []wikiHit
	if q != "" {
		k.mu.Lock()
		k.searches = append(k.searches, q)
		k.mu.Unlock()
		lq := strings.ToLower(q)
		for _, p := range wikiPages {
			hit := wikiHit{Slug: p.Slug, Title: p.Title}
			text := ""
			for _, s := range p.Sections {
				st := s.Heading + ". " + plain(s.Body)
				if strings.Contains(strings.ToLower(st), lq) {
					hit.Anchor, text = s.ID, st
					break
				}
			}
			if text == "" {
				intro := plain(p.Intro)
				if !strings.Contains(strings.ToLower(p.Title+" "+intro), lq) {
					continue
				}
				text = p.Title + ". " + intro
			}
			hit.Snippet = snippet(text, lq)
			hits = append(hits, hit)
		}
	}
	render(w, 0, wikiTmpl(), "search", map[string]any{"Title": "Search", "Q": q, "Results": hits, "All": wikiPages})
}

// snippet returns about 120 characters of text around the first match of lq.
func snippet(text, lq string) string {
	i := strings.Index(strings.ToLower(text), lq)
	if i < 0 {
		i = 0
	}
	start, end := max(0, i-50), min(len(text), i+70)
	for start > 0 && text[start]&0xC0 == 0x80 {
		start--
	}
	for end < len(text) && text[end]&0xC0 == 0x80 {
		end++
	}
	s := text[start:end]
	if start > 0 {
		s = "…" + s
	}
	if end < len(text) {
		s += "…"
	}
	return s
}
