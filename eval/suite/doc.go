// Package suite loads eval tasks from YAML task files, checks a run's
// outcome against each task's checks, and plays a task's reference solution
// as a scripted model (ReferencePolicy) so that the harness, the sites and
// the agent can be tested end to end without a language model.
//
// # Task files
//
// A task file holds one suite: optional defaults and a list of tasks. (A
// file whose top level has no tasks key is read as a single task.) Load
// reads a file or every *.yaml / *.yml file under a directory; Builtin
// returns the tasks embedded in this package (tasks/*.yaml).
//
//	suite: shop                 # optional; defaults to the file name without .yaml
//	site: shop                  # optional default site for every task below
//	limits:                     # optional default limits
//	  max_iterations: 30
//	tags: [builtin]             # optional tags added to every task
//	tasks:
//	  - id: shop-buy-mug        # required, unique across the files loaded together
//	    site: shop              # a built-in site (see sites.Names) ...
//	    path: /products         # ... and where to start on it (default /)
//	    # url: https://example.org/   # ... or, instead of site, any absolute URL
//	    instruction: >-         # required: the task in plain words
//	      Buy one Blue mug with standard shipping for Ann Lee,
//	      12 Elm Street, Springfield 01234, ann@example.com.
//	    tags: [checkout]
//	    limits:                 # optional; Go durations
//	      max_iterations: 20
//	      iteration_timeout: 90s
//	      task_timeout: 10m
//	    secrets:                # optional; the model sees only <secret>NAME</secret>
//	      card: "4111 1111 1111 1111"   # typed only on the start URL's origin
//	      pw@https://login.example.org: "s3cret"   # or bound to an origin
//	    allowed_domains: [example.org, "*.example.org"]   # optional; added to --allowed-domains
//	    blocked_domains: ["http://localhost:3000"]        # optional; added to --blocked-domains
//	    checks:                 # required; all must pass
//	      - state: {path: orders, count: 1}
//	      - state: {path: "orders.0.items[slug=blue-mug].quantity", equals: 1}
//	      - answer_regex: 'SO-[0-9]+'
//	      - url_contains: /orders/
//	    schema:                 # optional: the answer is JSON matching this JSON Schema
//	      type: object          #   (a mapping, or a string holding JSON); checks read
//	      properties: {order: {type: string}}   #   the answer's JSON text
//	      required: [order]
//	    storage_state: state.json  # optional: cookies and localStorage to start with, a
//	                            #   Playwright storage-state file (relative to this file)
//	    reference: |            # optional: the reference solution
//	      click "Add to cart" in "Blue mug"
//	      goto "/checkout"
//	      type "Full name" "Ann Lee"; type "Email" "ann@example.com"; type "Street address" "12 Elm Street"; type "City" "Springfield"; type "Postcode" "01234"; click "Place order"
//	      expect "Thank you for your order"
//	      done "Order {{/SO-[0-9]+/}} is placed."
//
// Unknown fields, a missing id, instruction or checks, a bad duration, an
// unknown site, a duplicate id, a bad regex or path, and every error in a
// reference are reported as an Error naming the file, the line, the task
// and the field; all problems of a load come back together as Errors.
//
// # Checks
//
// Each check is a mapping with one kind:
//
//	answer_equals: TEXT      the answer, ignoring case, extra spaces and a final full stop
//	answer_contains: TEXT    the answer contains TEXT, ignoring case
//	answer_regex: RE         the answer matches the Go regexp RE (write (?i) to ignore case)
//	answer_number: N         some number in the answer ("$1,234.50" is 1234.5) is N,
//	  tolerance: T           ... within T (default 0)
//	url_equals: URL          the final URL is URL; a value starting with / is compared
//	                         with the URL's path, query and fragment
//	url_contains: TEXT
//	url_regex: RE
//	page_js: EXPR            the JavaScript expression EXPR is truthy in the final page
//	element_text:            the text (or, for a form field, the value) of the first
//	  selector: CSS          element matching CSS, white space collapsed, ...
//	  equals|contains|regex: TEXT
//	state:                   the site's server state (sites.Site.State) at the end
//	  path: DOTTED.PATH      e.g. orders.0.items.1.name, orders.-1.total_cents,
//	                         users[name=Priya Patel].role ([field=value] picks the
//	                         first list item whose field equals value)
//	  equals: VALUE          any YAML value; numbers compare by value, and a numeric
//	                         string equals its number ("100" equals 100)
//	  contains: VALUE        a substring of a string, an item of a list, a key of a map
//	  regex: RE              the value's text matches RE
//	  count: N               a list or map has N entries (a string N characters)
//	  exists: true|false     the path leads somewhere (or not)
//
// Task.Check runs them on a CheckInput (the agent's answer, the final Page
// and the site's State) and says for every check what it found.
//
// # Reference solutions
//
// A reference is a literal block (reference: |) or a list of lines. Each
// line is one model turn: one step, or several steps separated by ';' that
// are sent as tool calls of the same reply. Blank lines and lines starting
// with '#' are skipped; '#' outside quotes starts a comment. Strings are
// double-quoted with JSON escapes (\" and \\).
//
//	click [ROLE] NAME [in SCOPE]            click{ref}
//	type [ROLE] NAME "TEXT" [submit] [in SCOPE]
//	                                        type{ref, text, submit}
//	select [ROLE] NAME "OPTION" [in SCOPE]  select{ref, option}
//	press "KEY"                             press{key}, e.g. press "Enter", press "Control+A"
//	scroll up|down|left|right               scroll{direction}
//	goto "URL"                              goto{url}; "/cart" is resolved against the site
//	back                                    back{}
//	expect ["no"] "TEXT"                    no call: the observation must (not) contain
//	                                        TEXT, else the policy fails; it must come
//	                                        before the line's actions
//	done "ANSWER"                           done{answer}: the reference's last step
//	fail "REASON"                           fail{reason}: for a task meant to fail
//
// NAME is an element's accessible name in quotes, matched exactly (white
// space collapsed; ignoring case when nothing matches exactly), or ~"TEXT"
// for names containing TEXT. ROLE is a bare word (button, link, textbox,
// combobox, checkbox, radio, ...) and restricts the match; without it any
// role matches. SCOPE is `in "TEXT"` or `in the row of "TEXT"`: the element
// nearest to the line holding TEXT, searched in that line's subtree (a
// table row's controls), then its parent's, and so on (see resolve for the
// exact rule).
//
// A line may end with `until "TEXT"`: it is repeated, up to MaxRepeats
// times, until TEXT is in the observation, and skipped if TEXT is there
// already (scroll down until "Lighthouse in fog").
//
// In the text of any operand, {{/RE/}} is replaced by the first match of
// the Go regexp RE in the latest observation, or by its first group when
// it has one: done "{{/Order number: (SO-[0-9]+)/}}".
//
// A new tool is added to the grammar by one entry in the verbs table, a
// verbSpec: its tool name, whether it takes a target element, its quoted
// operands, its bare-word flags and whether it ends the task.
//
// # The reference model
//
// ReferencePolicy turns a task's reference into a modelserver.Responder that
// stands in for the language model: it finds its place from the markers of
// its own earlier replies, resolves names to refs in the latest snapshot,
// and calls fail with the turn, line and reason when a name is not on the
// page, an expect does not hold, or a previous call returned an error, so a
// broken site or snapshot shows as a clear failure rather than a hang.
package suite
